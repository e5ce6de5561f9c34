import { newId, sortableId } from '../../lib/ids.js';
import { purgeAfter } from '../../config/plans.js';
import { prepareActivities } from '../activity/activity.record.js';
import type { SuppressionReason } from '../suppressions/suppression.matcher.js';
import type { Address, MessageSettings } from '../messages/message.entity.js';
import type { EmailStatus, MessageStatus } from '../messages/message.status.js';
import type { AcceptRows, EmailRow, MessageRow } from './accept.repository.js';
import type { SendEmailArgs } from './send.inputs.js';
import type { CheckedSend } from './send.validate.js';
import type { SenderDomain } from './sender.cache.js';

/** What acceptance decided before writing: who sends, from where, what, and to whom not. */
export interface AcceptPlan {
  accountId: string;
  domain: SenderDomain;
  templateId: string | null;
  templateTags: string[] | null;
  from: Address;
  subject: string;
  args: SendEmailArgs;
  checked: CheckedSend;
  bulkEmailId: string | null;
  now: Date;
  /** Each `to` recipient's rendered subject, by lowercase address (render.ts renderAtAccept). */
  subjects: Map<string, string>;
  /** The retention of the account's plan at acceptance: it fixes the message's `purge_after` for good. */
  retentionDays: number;
}

const lower = (s: string) => s.toLowerCase();

/** The send's personalization data by lowercase address (the last entry of an address wins). */
export function personalizationOf(args: SendEmailArgs): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const x of args.personalization ?? []) out[lower(x.email)] = x.data;
  return out;
}

/** The recipients of a send, deduplicated as the domain wants. */
export function recipientsOf(args: SendEmailArgs, domain: SenderDomain): { to: Address[]; cc: Address[]; bcc: Address[] } {
  const seen = new Set<string>();
  // With ignore_duplicated_recipients, an address is written to once per message, wherever it appears.
  const dedupe = (list: Address[]) =>
    domain.ignore_duplicated_recipients ? list.filter((a) => (seen.has(lower(a.email)) ? false : (seen.add(lower(a.email)), true))) : list;
  const norm = (list: { email: string; name?: string | null }[] | null | undefined): Address[] =>
    (list ?? []).map((a) => ({ email: a.email, name: a.name ?? null }));
  const to = dedupe(norm(args.to));
  const cc = dedupe(norm(args.cc));
  const bcc = dedupe(norm(args.bcc));
  return { to, cc, bcc };
}

/** What every row of one send shares: when and whose it is, and the message's id and tags. */
interface SharedFields {
  base: { at: string; account_id: string; domain_id: string };
  messageId: string;
  tags: string[];
}

/** One email per `to` address, `suppressed` ones included, each with the subject rendered for it. */
function emailRows(p: AcceptPlan, to: Address[], reasons: Map<string, SuppressionReason>, pendingStatus: EmailStatus, shared: SharedFields): EmailRow[] {
  const { base, messageId, tags } = shared;
  return to.map((a, position): EmailRow => {
    const id = sortableId(16, p.now.getTime());
    return {
      ...base,
      id,
      message_id: messageId,
      rkey: lower(a.email),
      position,
      to_email: a.email,
      to_name: a.name ?? null,
      subject: p.subjects.get(lower(a.email)) ?? p.subject,
      tags,
      status: reasons.has(a.email) ? 'suppressed' : pendingStatus,
      suppression_reason: reasons.get(a.email) ?? null,
      smtp_message_id: `<${id}@${p.domain.name}>`,
    };
  });
}

/** The message itself: its content, its cc and bcc less the suppressed, and when it is sent and purged. */
function messageRow(p: AcceptPlan, list: { cc: Address[]; bcc: Address[] }, reasons: Map<string, SuppressionReason>, status: MessageRow['status'], shared: SharedFields): MessageRow {
  const { args } = p;
  return {
    ...shared.base,
    id: shared.messageId,
    bulk_email_id: p.bulkEmailId,
    template_id: p.templateId,
    from_email: p.from.email,
    from_name: p.from.name ?? null,
    reply_to: args.reply_to ? { email: args.reply_to.email, name: args.reply_to.name ?? null } : null,
    cc: list.cc.filter((a) => !reasons.has(a.email)),
    bcc: list.bcc.filter((a) => !reasons.has(a.email)),
    subject: p.subject,
    text: args.text ?? null,
    html: args.html ?? null,
    tags: shared.tags,
    language: args.language ?? null,
    personalization: personalizationOf(args),
    settings: (args.settings ?? {}) as MessageSettings,
    headers: (args.headers ?? []).map((h) => ({ name: h.name, value: h.value })),
    in_reply_to: args.in_reply_to ?? null,
    references: args.references ?? [],
    list_unsubscribe: args.list_unsubscribe?.trim() ?? null,
    precedence_bulk: args.precedence_bulk ?? null,
    send_at: p.checked.sendAt?.toISOString() ?? null,
    purge_after: purgeAfter(p.retentionDays, p.now, p.checked.sendAt ?? null).toISOString(),
    status,
  };
}

/**
 * The rows of one accepted send (plain objects, no entities): the message, its attachments, one
 * recipient per mailbox (stored lowercase, as the suppression lists store them), one email per
 * `to` address (`suppressed` ones included), and their first activity. The delivery job's rows
 * are the caller's (`jobs`).
 */
export function acceptRows(
  p: AcceptPlan,
  list: { to: Address[]; cc: Address[]; bcc: Address[] },
  reasons: Map<string, SuppressionReason>,
  pendingStatus: MessageStatus & EmailStatus,
  jobs: (messageId: string) => string,
): AcceptRows {
  // The message and its parts are made at one instant: they share a week (db/partitions.ts), and
  // delivery reads a message's parts in its week alone (db/partitions.ts partsRange).
  const messageId = sortableId(24, p.now.getTime());
  const shared: SharedFields = {
    base: { at: p.now.toISOString(), account_id: p.accountId, domain_id: p.domain.id },
    messageId,
    tags: p.args.tags ?? p.templateTags ?? [],
  };
  const sendable = list.to.some((a) => !reasons.has(a.email));
  const emails = emailRows(p, list.to, reasons, pendingStatus, shared);
  const message = messageRow(p, list, reasons, sendable ? pendingStatus : 'sent', shared);
  return {
    message,
    attachments: p.checked.attachments.map((a, position) => ({
      id: sortableId(16, p.now.getTime()),
      message_id: messageId,
      position,
      filename: a.filename,
      disposition: a.disposition,
      content_id: a.content_id,
      content: a.content,
    })),
    recipients: [...new Set(emails.map((e) => e.rkey))].sort().map((email) => ({ ...shared.base, id: newId(), email })),
    emails,
    jobs: jobs(messageId),
    activities: prepareActivities(
      emails.map((e) => ({
        email: { id: e.id, account_id: p.accountId, domain_id: p.domain.id, message_id: messageId, subject: e.subject, to_email: e.to_email, tags: shared.tags, purge_after: message.purge_after },
        type: e.status === 'suppressed' ? 'suppressed' : 'queued',
        suppression_reason: e.suppression_reason,
        at: p.now,
      })),
    ),
    claim: null,
  };
}
