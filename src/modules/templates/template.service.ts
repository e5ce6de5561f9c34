import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { DomainRepository } from '../domains/domain.repository.js';
import { asDateOrNull } from '../../db/sql.js';
import { htmlToText } from './template.content.js';
import { checkSyntax, templateVariables } from './template.engine.js';
import { Template, TemplateCategory } from './template.entity.js';
import { TemplateRepository } from './template.repository.js';
import { NO_NUMBERS, type TemplateNumbers } from './template.mapper.js';
import type { CreateTemplateArgs, TemplateFieldsArgs, TemplateListArgs, UpdateTemplateArgs } from './template.inputs.js';
import { type Actor, assertDomainAccess, domainsOf } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta } from '../../core/page.js';

const DOMAIN_TOTALS = ['hard_bounced', 'soft_bounced', 'sent', 'delivered'] as const;

/**
 * Templates of the account. A template without a domain is account-wide: out of a domain-limited
 * token's reach (404, left out of its lists, refused as a send's template_id), like every row of
 * no domain (db/scoped.ts).
 */
export class TemplateService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: TemplateListArgs) {
    // The caller's domains (one or several; account-wide templates are left out then), or the one asked for.
    let domainIds = domainsOf(auth);
    if (args.domain_id != null) {
      const domain = await findOwned(this.em, Domain, auth, { id: args.domain_id });
      assertDomainAccess(auth, domain.id);
      domainIds = [domain.id];
    }
    // A session user limited to some templates (users' template access) lists those only.
    const templateIds = auth.templateIds?.length ? auth.templateIds : null;
    // Plain rows of the listed columns in one statement: no bodies, no entities.
    const { rows, total } = await new TemplateRepository(this.em).listPage({ accountId: auth.accountId, domainIds, templateIds }, args.limit, offsetOf(args));
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<Template> {
    return findOwned(this.em, Template, auth, { id }, ['domain']);
  }

  /** The template's categories that still exist, in the order it was given them. */
  async categories(auth: Actor, template: Template): Promise<TemplateCategory[]> {
    if (!template.category_ids.length) return [];
    const found = await this.em.find(TemplateCategory, { id: { $in: template.category_ids }, account: auth.accountId });
    const byId = new Map(found.map((c) => [c.id, c]));
    return template.category_ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The template's sending stats and its domain's all-time totals (from the daily rollup). */
  async numbers(auth: Actor, template: Template): Promise<TemplateNumbers> {
    const stats = await new TemplateRepository(this.em).stats(template.id, auth.accountId);
    const totals = template.domain
      ? await new DomainRepository(this.em).activityTotals(auth.accountId, template.domain.id, DOMAIN_TOTALS)
      : NO_NUMBERS.totals;
    return {
      template_stats: { ...stats, last_email_sent_at: asDateOrNull(stats.last_email_sent_at) },
      totals,
    };
  }

  async create(auth: Actor, args: CreateTemplateArgs): Promise<Template> {
    const bag = new FieldErrorBag();
    if (!args.html.trim()) bag.add('html', msg.required('html'));
    if (!args.auto_generate && !args.text?.trim()) bag.add('text', msg.required('text'));
    // Content the engine cannot parse is refused now, with its line, not at every send.
    checkSyntax(bag, { subject: args.subject, html: args.html, text: args.auto_generate ? null : args.text });
    const refs = await this.checkRefs(auth, args, bag);
    bag.throwIfAny();
    // A caller limited to one domain makes templates of that domain; one limited to several names
    // one of them: an account-wide template is out of its reach, like every row of no domain.
    if (!refs.domain && auth.domainIds?.length) throw errors.forbidden('This user is limited to some domains; an account-wide template is out of reach: name one of them (domain_id).');
    const domain = refs.domain ?? (auth.domainId ? this.em.getReference(Domain, auth.domainId) : null);
    const template = this.em.create(Template, {
      account: this.em.getReference(Account, auth.accountId),
      domain,
      category_ids: refs.categoryIds ?? [],
      name: args.name?.trim() || 'Template',
      html: args.html,
      text: args.auto_generate ? htmlToText(args.html) : args.text!,
      tags: args.tags ?? [],
      default_subject: args.subject ?? null,
      default_from_email: args.from_email ?? null,
      default_from_name: args.from_name ?? null,
      created_via: 'api',
    });
    template.variables = templateVariables(template.default_subject, template.html, template.text);
    await this.em.flush();
    return template;
  }

  async update(auth: Actor, args: UpdateTemplateArgs): Promise<Template> {
    const template = await this.get(auth, args.template_id);
    // Templates made elsewhere (the app) are not the API's to change: they answer as unknown.
    if (template.created_via !== 'api') throw errors.notFound();
    const bag = new FieldErrorBag();
    if (args.name != null && !args.name.trim()) bag.add('name', msg.required('name'));
    if (args.html != null && !args.html.trim()) bag.add('html', msg.required('html'));
    if (args.text != null && !args.auto_generate && !args.text.trim()) bag.add('text', msg.required('text'));
    checkSyntax(bag, { subject: args.subject, html: args.html, text: args.auto_generate ? null : args.text });
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
    if (refs.categoryIds !== undefined) template.category_ids = refs.categoryIds;
    template.variables = templateVariables(template.default_subject, template.html, template.text);
    await this.em.flush();
    return template;
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const template = await this.get(auth, id);
    await this.em.remove(template).flush();
    return true;
  }

  /**
   * The domain and categories named in the args, each checked against the account (422 when
   * unknown there). `categoryIds` is undefined when `categories` was not given; a repeated id is
   * kept once, at its first place.
   */
  private async checkRefs(auth: Actor, args: TemplateFieldsArgs, bag: FieldErrorBag) {
    let domain: Domain | null = null;
    if (args.domain_id != null) {
      domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) bag.add('domain_id', msg.in('domain_id'));
      else assertDomainAccess(auth, domain.id);
    }
    let categoryIds: string[] | undefined;
    if (args.categories != null) {
      const found = args.categories.length
        ? await this.em.find(TemplateCategory, { id: { $in: args.categories }, account: auth.accountId })
        : [];
      const byId = new Map(found.map((c) => [c.id, c]));
      args.categories.forEach((id, i) => {
        if (!byId.has(id)) bag.add(`categories.${i}`, msg.in(`categories.${i}`));
      });
      categoryIds = [...new Set(args.categories)];
    }
    return { domain, categoryIds };
  }
}
