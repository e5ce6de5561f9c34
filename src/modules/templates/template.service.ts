import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { assertDomainAccess } from '../../graphql/auth.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf, pageMeta } from '../../graphql/pagination.js';
import { FieldErrorBag } from '../../graphql/validation.js';
import { findOwned } from '../../db/scoped.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { collectVariables, htmlToText } from './template.content.js';
import { Template, TemplateCategory } from './template.entity.js';
import type { CreateTemplateArgs, TemplateFieldsArgs, TemplateListArgs, UpdateTemplateArgs } from './template.inputs.js';

const SHARED_FORBIDDEN = 'This token is limited to one domain; this template belongs to every domain.';

/**
 * Templates of the account. A template without a domain is account-wide: a domain-limited token
 * sees it, but only tokens of the whole account may change it.
 */
export class TemplateService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Auth, args: TemplateListArgs) {
    const where: Record<string, unknown> = { account: auth.accountId };
    if (args.domain_id != null) {
      const domain = await findOwned(this.em, Domain, auth, { id: args.domain_id });
      assertDomainAccess(auth, domain.id);
      where.domain = domain.id;
    } else if (auth.domainId) {
      where.$or = [{ domain: null }, { domain: auth.domainId }];
    }
    const [rows, total] = await this.em.findAndCount(Template, where, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Auth, id: string): Promise<Template> {
    return findOwned(this.em, Template, auth, { id }, ['domain', 'category']);
  }

  async create(auth: Auth, args: CreateTemplateArgs): Promise<Template> {
    const bag = new FieldErrorBag();
    if (!args.html.trim()) bag.add('html', msg.required('html'));
    if (!args.auto_generate && !args.text?.trim()) bag.add('text', msg.required('text'));
    const refs = await this.checkRefs(auth, args, bag);
    bag.throwIfAny();
    // A domain-limited token makes templates of its own domain only.
    const domain = refs.domain ?? (auth.domainId ? this.em.getReference(Domain, auth.domainId) : null);
    const template = this.em.create(Template, {
      account: this.em.getReference(Account, auth.accountId),
      domain,
      category: refs.category ?? null,
      name: args.name?.trim() || 'Template',
      html: args.html,
      text: args.auto_generate ? htmlToText(args.html) : args.text!,
      tags: args.tags ?? [],
      default_subject: args.subject ?? null,
      default_from_email: args.from_email ?? null,
      default_from_name: args.from_name ?? null,
      created_via: 'api',
    } as never);
    template.variables = collectVariables(template.default_subject, template.html, template.text);
    await this.em.flush();
    return template;
  }

  async update(auth: Auth, args: UpdateTemplateArgs): Promise<Template> {
    const template = await this.get(auth, args.template_id);
    // Templates made elsewhere (the app) are not the API's to change: they answer as unknown.
    if (template.created_via !== 'api') throw errors.notFound();
    if (auth.domainId && !template.domain) throw errors.forbidden(SHARED_FORBIDDEN);
    const bag = new FieldErrorBag();
    if (args.name != null && !args.name.trim()) bag.add('name', msg.required('name'));
    if (args.html != null && !args.html.trim()) bag.add('html', msg.required('html'));
    if (args.text != null && !args.auto_generate && !args.text.trim()) bag.add('text', msg.required('text'));
    const refs = await this.checkRefs(auth, args, bag);
    bag.throwIfAny();
    if (args.name != null) template.name = args.name.trim();
    if (args.html != null) template.html = args.html;
    if (args.auto_generate) template.text = htmlToText(template.html);
    else if (args.text != null) template.text = args.text;
    if (args.tags != null) template.tags = args.tags;
    if (args.subject != null) template.default_subject = args.subject;
    if (args.from_email != null) template.default_from_email = args.from_email;
    if (args.from_name != null) template.default_from_name = args.from_name;
    if (refs.domain) template.domain = refs.domain;
    if (refs.category !== undefined) template.category = refs.category;
    template.variables = collectVariables(template.default_subject, template.html, template.text);
    await this.em.flush();
    return template;
  }

  async remove(auth: Auth, id: string): Promise<boolean> {
    const template = await this.get(auth, id);
    if (auth.domainId && !template.domain) throw errors.forbidden(SHARED_FORBIDDEN);
    await this.em.remove(template).flush();
    return true;
  }

  /**
   * The domain and categories named in the args, each checked against the account (422 when
   * unknown there). `category` is undefined when `categories` was not given, null when empty.
   */
  private async checkRefs(auth: Auth, args: TemplateFieldsArgs, bag: FieldErrorBag) {
    let domain: Domain | null = null;
    if (args.domain_id != null) {
      domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) bag.add('domain_id', msg.in('domain_id'));
      else assertDomainAccess(auth, domain.id);
    }
    let category: TemplateCategory | null | undefined;
    if (args.categories != null) {
      const found = args.categories.length
        ? await this.em.find(TemplateCategory, { id: { $in: args.categories }, account: auth.accountId })
        : [];
      const byId = new Map(found.map((c) => [c.id, c]));
      args.categories.forEach((id, i) => {
        if (!byId.has(id)) bag.add(`categories.${i}`, msg.in(`categories.${i}`));
      });
      category = args.categories.length ? (byId.get(args.categories[0]) ?? null) : null;
    }
    return { domain, category };
  }
}
