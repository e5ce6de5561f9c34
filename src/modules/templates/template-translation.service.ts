import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { TemplateTranslation } from './template-translation.entity.js';
import type { CreateTemplateTranslationArgs, TemplateTranslationArgs, UpdateTemplateTranslationArgs } from './template-translation.inputs.js';
import { Template } from './template.entity.js';
import { htmlToText } from './template.content.js';
import { checkSyntax } from './template.engine.js';
import { isLanguage } from './template.languages.js';

/**
 * Translations of a template. Each is reached through its template, loaded as the caller may see
 * it (findOwned: the account, a domain-limited token's domain, a user's templates), so the
 * translation of a template out of reach answers as the template does (404 or 403). Like the
 * template, only one created through the API is the API's to change.
 */
export class TemplateTranslationService {
  constructor(private readonly em: EntityManager) {}

  private template(auth: Actor, id: string): Promise<Template> {
    return findOwned(this.em, Template, auth, { id });
  }

  private async writable(auth: Actor, id: string): Promise<Template> {
    const template = await this.template(auth, id);
    if (template.created_via !== 'api') throw errors.notFound();
    return template;
  }

  async list(auth: Actor, templateId: string): Promise<TemplateTranslation[]> {
    const template = await this.template(auth, templateId);
    return this.em.find(TemplateTranslation, { template }, { orderBy: { language: 'asc' } });
  }

  async get(auth: Actor, args: TemplateTranslationArgs): Promise<TemplateTranslation> {
    const template = await this.template(auth, args.template_id);
    const found = await this.em.findOne(TemplateTranslation, { template, language: args.language });
    if (!found) throw errors.notFound();
    return found;
  }

  async create(auth: Actor, args: CreateTemplateTranslationArgs): Promise<TemplateTranslation> {
    const template = await this.writable(auth, args.template_id);
    const bag = new FieldErrorBag();
    if (!isLanguage(args.language)) bag.add('language', msg.in('language'));
    else if (await this.em.count(TemplateTranslation, { template, language: args.language })) bag.add('language', msg.taken('language'));
    if (!args.html.trim()) bag.add('html', msg.required('html'));
    if (!args.auto_generate && !args.text?.trim()) bag.add('text', msg.required('text'));
    checkSyntax(bag, { subject: args.subject, html: args.html, text: args.auto_generate ? null : args.text });
    bag.throwIfAny();
    const translation = this.em.create(TemplateTranslation, {
      template,
      language: args.language,
      subject: args.subject ?? null,
      html: args.html,
      text: args.auto_generate ? htmlToText(args.html) : args.text!,
    });
    // Two concurrent creates of one language: the unique index decides.
    await takenIfDuplicate('language', () => this.em.flush());
    return translation;
  }

  async update(auth: Actor, args: UpdateTemplateTranslationArgs): Promise<TemplateTranslation> {
    const template = await this.writable(auth, args.template_id);
    const translation = await this.em.findOne(TemplateTranslation, { template, language: args.language });
    if (!translation) throw errors.notFound();
    const bag = new FieldErrorBag();
    if (args.html != null && !args.html.trim()) bag.add('html', msg.required('html'));
    if (args.text != null && !args.auto_generate && !args.text.trim()) bag.add('text', msg.required('text'));
    checkSyntax(bag, { subject: args.subject, html: args.html, text: args.auto_generate ? null : args.text });
    bag.throwIfAny();
    if (args.subject !== undefined) translation.subject = args.subject;
    if (args.html != null) translation.html = args.html;
    if (args.auto_generate) translation.text = htmlToText(translation.html);
    else if (args.text != null) translation.text = args.text;
    await this.em.flush();
    return translation;
  }

  async remove(auth: Actor, args: TemplateTranslationArgs): Promise<boolean> {
    const template = await this.writable(auth, args.template_id);
    const deleted = await this.em.nativeDelete(TemplateTranslation, { template, language: args.language });
    if (!deleted) throw errors.notFound();
    return true;
  }
}
