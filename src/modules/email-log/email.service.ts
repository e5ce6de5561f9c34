import type { EntityManager } from '@mikro-orm/postgresql';
import { toRecipient } from '../recipients/recipient.type.js';
import type { Recipient } from '../recipients/recipient.entity.js';
import { EMAIL_COLUMNS, EMAIL_FROM, toLoggedEmail, type EmailRow } from './email.mapper.js';
import type { EmailListArgs } from './email.inputs.js';
import type { LoggedEmail, LoggedEmailDetail } from './email.type.js';
import { asDate, asDateOrNull, LIFECYCLE_RANK, likeEscape, Where } from './sql.js';
import { domainScope } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** The optional date range of the log: each bound a Unix timestamp or a plain UTC date-time. */
function checkRange(args: EmailListArgs): { from: Date | null; to: Date | null } {
  const bag = new FieldErrorBag();
  const from = args.date_from ? parseMoment(args.date_from) : null;
  const to = args.date_to ? parseMoment(args.date_to) : null;
  const format = (f: string) => `The ${f.replace('_', ' ')} must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.`;
  if (args.date_from && !from) bag.add('date_from', format('date_from'));
  if (args.date_to && !to) bag.add('date_to', format('date_to'));
  if (from && to && from.getTime() >= to.getTime()) bag.add('date_from', 'The date from must be a date before date to.');
  bag.throwIfAny();
  return { from, to };
}

const INTERACTION_SQL: Record<string, string> = {
  opened: 'e.opened_at is not null',
  clicked: 'e.clicked_at is not null',
  unsubscribed: 'e.unsubscribed_at is not null',
  no_interaction: '(e.opened_at is null and e.clicked_at is null and e.unsubscribed_at is null)',
};

/** The email log: each email of each accepted send, newest first, read through (account_id, created_at). */
export class EmailLogService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: EmailListArgs): Promise<LoggedEmail[]> {
    const range = checkRange(args);
    const w = new Where().add('e.account_id = ?', auth.accountId);
    if (range.from) w.add('e.created_at >= ?', range.from);
    // Inclusive to the second it names.
    if (range.to) w.add('e.created_at < ?', new Date(range.to.getTime() + 1000));
    const domainId = await domainScope(this.em, auth, args.domain_id);
    if (domainId) w.add('e.domain_id = ?', domainId);
    if (args.status?.length) w.add('e.status = any(?::text[])', `{${args.status.join(',')}}`);
    if (args.interaction?.length) w.add(`(${[...new Set(args.interaction)].map((i) => INTERACTION_SQL[i]).join(' or ')})`);
    const recipient = args.recipient ?? args.recipient_email;
    if (recipient) w.add('lower(e.to_email) = lower(?)', recipient.trim());
    if (args.subject) w.add(`e.subject ilike ? escape '\\'`, `%${likeEscape(args.subject)}%`);
    if (args.tag) w.add('? = any(e.tags)', args.tag);
    const template = args.template ?? args.template_id;
    if (template) w.add('m.template_id = ?', template);
    if (args.message_id) w.add('e.message_id = ?', args.message_id);
    const rows = await this.em.execute<EmailRow[]>(
      `select ${EMAIL_COLUMNS} from ${EMAIL_FROM} where ${w.sql}
        order by e.created_at desc, e.id desc limit ? offset ?`,
      [...w.params, args.limit, offsetOf(args)],
    );
    return rows.map(toLoggedEmail);
  }

  async get(auth: Actor, emailId: string): Promise<LoggedEmailDetail> {
    const [row] = await this.em.execute<(EmailRow & { html: string | null; text: string | null; r_id: string; r_email: string; r_created_at: unknown; r_updated_at: unknown; r_deleted_at: unknown })[]>(
      `select ${EMAIL_COLUMNS}, coalesce(m.html, t.html) as html, coalesce(m.text, t.text) as text, r.id as r_id, r.email as r_email, r.created_at as r_created_at,
              r.updated_at as r_updated_at, r.deleted_at as r_deleted_at
         from ${EMAIL_FROM} join recipients r on r.id = e.recipient_id left join templates t on t.id = m.template_id
        where e.id = ? and e.account_id = ?`,
      [emailId, auth.accountId],
    );
    if (!row) throw errors.notFound();
    assertDomainAccess(auth, row.domain_id);
    const activity = await this.em.execute<{ id: string; type: string; suppression_reason: string | null; created_at: unknown }[]>(
      `select a.id, a.type, a.suppression_reason, a.created_at from activities a where a.email_id = ? order by a.created_at, ${LIFECYCLE_RANK}, a.id`,
      [emailId],
    );
    const [content] = await this.em.execute<{ html: string | null; text: string | null; raw: string | null }[]>(
      'select html, text, raw from captured_mails where email_id = ? order by created_at desc limit 1',
      [emailId],
    );
    const recipient = {
      id: row.r_id,
      email: row.r_email,
      created_at: asDate(row.r_created_at),
      updated_at: asDate(row.r_updated_at),
      deleted_at: asDateOrNull(row.r_deleted_at),
    } as Recipient;
    return {
      ...toLoggedEmail(row),
      recipient: toRecipient(recipient),
      activity: activity.map((a) => ({
        id: a.id,
        type: a.type,
        suppression_reason: a.type === 'suppressed' ? a.suppression_reason : null,
        created_at: asDate(a.created_at),
      })),
      html: content?.html ?? row.html,
      text: (content?.text || null) ?? row.text,
      content: content ? { html: content.html, text: content.text || null, raw: content.raw } : null,
    };
  }
}
