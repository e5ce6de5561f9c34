import type { EntityManager } from '@mikro-orm/postgresql';
import { toRecipient } from '../recipients/recipient.type.js';
import { shownContent, toLoggedEmail } from './email.mapper.js';
import { EmailLogRepository } from './email.repository.js';
import type { EmailListArgs } from './email.inputs.js';
import type { EmailWebhookDelivery, LoggedEmail, LoggedEmailDetail } from './email.type.js';
import { asDate, asDateOrNull } from '../../db/sql.js';
import { domainsScope } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';
import { scopeSatisfied } from '../../core/scopes.js';
import { untrack } from '../tracking/untrack.js';
import { diagnosisOf } from '../activity/diagnosis.type.js';

/** The single email lists at most this many webhook deliveries (an email has a few events, a domain a few webhooks). */
export const EMAIL_DELIVERIES_SHOWN = 100;

/** The optional date range of the log: each bound a Unix timestamp or a plain UTC date-time. */
function checkRange(args: EmailListArgs): { from: Date | null; to: Date | null } {
  const bag = new FieldErrorBag();
  const from = args.date_from ? (parseMoment(args.date_from)?.at ?? null) : null;
  const to = args.date_to ? (parseMoment(args.date_to)?.at ?? null) : null;
  const format = (f: string) => `The ${f.replace('_', ' ')} must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.`;
  if (args.date_from && !from) bag.add('date_from', format('date_from'));
  if (args.date_to && !to) bag.add('date_to', format('date_to'));
  if (from && to && from.getTime() >= to.getTime()) bag.add('date_from', 'The date from must be a date before date to.');
  bag.throwIfAny();
  return { from, to };
}

/** The email log: each email of each accepted send, newest first, read through (account_id, created_at). */
export class EmailLogService {
  private readonly repo: EmailLogRepository;

  constructor(
    private readonly em: EntityManager,
    private readonly appSecret: string,
  ) {
    this.repo = new EmailLogRepository(em);
  }

  async list(auth: Actor, args: EmailListArgs): Promise<LoggedEmail[]> {
    const range = checkRange(args);
    const recipient = args.recipient ?? args.recipient_email;
    const rows = await this.repo.list(
      {
        accountId: auth.accountId,
        from: range.from,
        // Inclusive to the second it names.
        before: range.to && new Date(range.to.getTime() + 1000),
        domainIds: await domainsScope(this.em, auth, args.domain_id),
        statuses: args.status,
        interactions: args.interaction,
        recipient: recipient || null,
        subject: args.subject,
        tag: args.tag,
        templateId: args.template ?? args.template_id,
        messageId: args.message_id,
      },
      { limit: args.limit, offset: offsetOf(args) },
    );
    return rows.map(toLoggedEmail);
  }

  async get(auth: Actor, emailId: string): Promise<LoggedEmailDetail> {
    const row = await this.repo.detail(emailId, auth.accountId);
    if (!row) throw errors.notFound();
    assertDomainAccess(auth, row.domain_id);
    const activity = await this.repo.activityOf(emailId);
    const content = row.content_cleared ? null : await this.repo.captured(emailId);
    return {
      ...toLoggedEmail(row),
      recipient: toRecipient({
        id: row.r_id,
        email: row.r_email,
        created_at: asDate(row.r_created_at),
        updated_at: asDate(row.r_updated_at),
        deleted_at: asDateOrNull(row.r_deleted_at),
      }),
      activity: activity.map((a) => ({
        id: a.id,
        type: a.type,
        suppression_reason: a.type === 'suppressed' ? a.suppression_reason : null,
        created_at: asDate(a.created_at),
      })),
      ...this.shown(row, content),
      last_response: row.last_response,
      diagnosis: diagnosisOf(row.status, row.last_response),
    };
  }

  /** The bodies as written, without our tracking (reading an email is not opening it); `content` as captured. */
  private shown(row: Parameters<typeof shownContent>[0], captured: Parameters<typeof shownContent>[1]) {
    const shown = shownContent(row, captured);
    return { ...shown, html: untrack(this.appSecret, shown.html, 'html'), text: untrack(this.appSecret, shown.text, 'text') };
  }

  /**
   * The webhook deliveries of an email the caller has already read through get() (account and
   * domain checked there). Webhooks are webhooks_full's data: without it the caller gets null,
   * and the rest of the email all the same.
   */
  async webhookDeliveries(auth: Actor, email: { id: string; domain_id: string; created_at: Date }): Promise<EmailWebhookDelivery[] | null> {
    if (!scopeSatisfied(auth.scopes, 'webhooks_full')) return null;
    const of = { id: email.id, domainId: email.domain_id, createdAt: new Date(email.created_at) };
    const rows = await this.repo.webhookDeliveriesOf(of, auth.accountId, EMAIL_DELIVERIES_SHOWN);
    return rows.map((r) => ({ ...r, created_at: asDate(r.created_at) }));
  }
}
