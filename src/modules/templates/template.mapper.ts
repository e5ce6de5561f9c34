import { toDomainRef } from '../domains/domain-ref.type.js';
import type { Template, TemplateCategory } from './template.entity.js';
import type { TemplateListRow } from './template.repository.js';
import type { TemplateCategoryType, TemplateDomainTotals, TemplateListItem, TemplateStats, TemplateType } from './template.type.js';

/** What a template has sent so far and its domain's totals (TemplateService.stats). */
export interface TemplateNumbers {
  template_stats: TemplateStats;
  totals: TemplateDomainTotals;
}

/** A template just created has sent nothing. */
export const NO_NUMBERS: TemplateNumbers = {
  template_stats: { total: 0, queued: 0, sent: 0, rejected: 0, delivered: 0, last_email_sent_at: null },
  totals: { hard_bounced: 0, soft_bounced: 0, sent: 0, delivered: 0 },
};

function core(t: TemplateListRow) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    type: t.type,
    image_path: t.image_path,
    tags: t.tags,
    variables: t.variables,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

export function toTemplateListItem(t: TemplateListRow): TemplateListItem {
  return core(t);
}

export function toTemplateCategory(c: TemplateCategory): TemplateCategoryType {
  return { id: c.id, name: c.name };
}

/**
 * The single shape: `category` is the first of the template's categories (SPEC.md gives one),
 * `categories` all of them (GraphQL only). The create response leaves category and domain null
 * (SPEC.md).
 */
export function toTemplate(t: Template, numbers: TemplateNumbers, categories: TemplateCategory[], opts: { created?: boolean } = {}): TemplateType {
  const nested = !opts.created;
  return {
    ...core(t),
    category: nested && categories.length ? toTemplateCategory(categories[0]) : null,
    categories: categories.map(toTemplateCategory),
    domain: nested && t.domain ? { ...toDomainRef(t.domain), totals: numbers.totals } : null,
    template_stats: numbers.template_stats,
    subject: t.default_subject,
    html: t.html,
    text: t.text,
  };
}
