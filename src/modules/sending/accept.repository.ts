import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';
import { recordsetInsert, type RecordsetInsert } from '../../db/recordset.js';
import { outboxInsert, outboxWake } from '../../jobs/outbox.js';
import type { ActivityInsert } from '../activity/activity.repository.js';
import { ACTIVITY_INPUT, activityWrites } from '../activity/activity.repository.js';
import { Email, Message, MessageAttachment, type MessageContentRow } from '../messages/message.entity.js';
import { Recipient } from '../recipients/recipient.entity.js';
import type { EmailStatus, MessageStatus } from '../messages/message.status.js';
import { matchCte, type MatchRow } from '../suppressions/suppression.repository.js';
import { claimCte, type IdempotencyClaim } from './idempotency.repository.js';
import type { Sender } from './sender.cache.js';
import type { Plan } from '../../config/plans.js';

/** The message row, as the acceptance statement takes it (`at`: created_at and updated_at). */
export interface MessageRow extends MessageContentRow {
  id: string;
  at: string;
  account_id: string;
  domain_id: string;
  bulk_email_id: string | null;
  template_id: string | null;
  subject: string;
  tags: string[];
  language: string | null;
  send_at: string | null;
  /** When the retention job may delete it: fixed at acceptance by the account's plan then. */
  purge_after: string;
  status: MessageStatus;
}

export interface AttachmentRow {
  id: string;
  message_id: string;
  position: number;
  filename: string;
  disposition: 'inline' | 'attachment';
  content_id: string | null;
  content: Buffer;
}

/** An attachment as the statement takes it: where its bytes lie in the bytea parameter, not the bytes. */
type AttachmentInput = Omit<AttachmentRow, 'content'> & { from: number; length: number };

/**
 * The attachments of a statement: their fields as JSON, each naming where its bytes lie in one
 * bytea parameter of all of them. Bytes cross in binary, copied once, where base64 inside the JSON
 * was encoded, serialised and encoded again on the event loop (bench/worst-inputs.ts, the 25 MB
 * attachment).
 */
function attachmentParams(rows: AttachmentRow[]): { fields: string; bytes: Buffer } {
  let at = 1;
  const fields = rows.map(({ content, ...row }) => {
    const placed: AttachmentInput = { ...row, from: at, length: content.length };
    at += content.length;
    return placed;
  });
  return { fields: JSON.stringify(fields), bytes: Buffer.concat(rows.map((r) => r.content)) };
}

/** One email; `rkey` is its recipient's address as stored (lower-cased), to join the upserted recipient. */
export interface EmailRow {
  id: string;
  at: string;
  account_id: string;
  domain_id: string;
  message_id: string;
  rkey: string;
  position: number;
  to_email: string;
  to_name: string | null;
  subject: string;
  tags: string[];
  status: EmailStatus;
  suppression_reason: string | null;
  /** The Message-ID header it goes out with: fixed here, so delivery's updates of the row change no indexed column. */
  smtp_message_id: string;
}

export interface RecipientRow {
  id: string;
  at: string;
  account_id: string;
  domain_id: string;
  email: string;
}

/** Everything one accepted send writes. */
export interface AcceptRows {
  message: MessageRow;
  attachments: AttachmentRow[];
  /** Unique, sorted: concurrent sends to the same addresses take their rows in the same order. */
  recipients: RecipientRow[];
  emails: EmailRow[];
  /** The delivery job's outbox rows (jobs/outbox.ts outboxRows): `[]` when nothing is to be delivered now. */
  jobs: string;
  activities: ActivityInsert[];
  claim: IdempotencyClaim | null;
}

/**
 * Which acceptance statement: with an Idempotency-Key's claim; checking suppressions itself; for
 * several sends at once (`many`: the check's input is an array, one per send, and nothing is
 * written when any send has a match).
 */
interface Variant {
  keyed: boolean;
  checked: boolean;
  many?: boolean;
}

/** A row's `at`: its created_at and its updated_at. */
const AT = ['created_at', 'updated_at'] as const;

/** The acceptance statement's inserts, each described by its table's entity (db/recordset.ts). */
interface AcceptInserts {
  messages: RecordsetInsert;
  attachments: RecordsetInsert;
  recipients: RecordsetInsert;
  emails: RecordsetInsert;
}

function acceptInserts(em: EntityManager, bytesParam: string): AcceptInserts {
  return {
    messages: recordsetInsert<MessageRow>(em, Message, {
      id: true, at: AT, account_id: true, domain_id: true, bulk_email_id: true, template_id: true, from_email: true,
      from_name: true, reply_to: true, cc: true, bcc: true, subject: true, text: true, html: true, tags: true, language: true,
      personalization: true, settings: true, headers: true, in_reply_to: true, references: true, list_unsubscribe: true,
      precedence_bulk: true, send_at: true, purge_after: true, status: true,
    }),
    attachments: recordsetInsert<AttachmentInput>(
      em,
      MessageAttachment,
      { id: true, message_id: true, position: true, filename: true, disposition: true, content_id: true, from: { type: 'int' }, length: { type: 'int' } },
      { content: `substring(${bytesParam}::bytea from x."from" for x.length)` },
    ),
    recipients: recordsetInsert<RecipientRow>(em, Recipient, { id: true, at: AT, account_id: true, domain_id: true, email: true }),
    emails: recordsetInsert<EmailRow>(
      em,
      Email,
      {
        id: true, at: AT, account_id: true, domain_id: true, message_id: true, rkey: { type: 'text' }, position: true, to_email: true,
        to_name: true, subject: true, tags: true, status: true, suppression_reason: true, smtp_message_id: true,
      },
      { recipient_id: 'rec.id' },
    ),
  };
}

/**
 * The acceptance statement. Its parameters: $1 the message, $2 attachments, $3
 * recipients, $4 emails, $5 the job's outbox rows, $6 activities, then the claim when keyed, then the
 * suppression check's input when checked, and last the attachments' bytes (attachmentParams). A checked statement writes only when no suppression
 * entry concerns the send (matchCte found nothing): the common case takes one round trip; else
 * it returns what it found, and the send is written again, judged, by an unchecked one.
 */
function acceptSql(em: EntityManager, v: Variant): string {
  const claimParam = v.keyed ? '$7' : null;
  const matchParam = v.checked ? (v.keyed ? '$8' : '$7') : null;
  const bytesParam = `$${7 + (v.keyed ? 1 : 0) + (v.checked ? 1 : 0)}`;
  const conditions = [...(v.checked ? ['not exists (select 1 from sup)'] : []), ...(v.keyed ? ['exists (select 1 from claim)'] : [])];
  const when = conditions.join(' and ');
  // Every input is empty unless the conditions hold: nothing is written then.
  const gate = (p: string, empty = `'[]'::jsonb`) => (when ? `(case when ${when} then ${p} else ${empty} end)` : p);
  const ctes = [
    ...(matchParam ? [matchCte('sup', `${matchParam}::jsonb`, v.many)] : []),
    // The claim is taken only when the send is written (a suppressed one is judged first).
    ...(claimParam ? [claimCte('claim', v.checked ? `(case when not exists (select 1 from sup) then ${claimParam}::jsonb else '[]'::jsonb end)` : `${claimParam}::jsonb`)] : []),
  ];
  const { messages, attachments, recipients, emails } = acceptInserts(em, bytesParam);
  return `with ${ctes.map((c) => `${c},`).join('\n')}
  msg as (
    insert into messages (${messages.columns}) select ${messages.values} from ${messages.from(gate('$1::jsonb'))}
  ),
  att as (
    insert into message_attachments (${attachments.columns}) select ${attachments.values} from ${attachments.from(gate('$2::jsonb'))}
  ),
  rec as (
    insert into recipients (${recipients.columns}) select ${recipients.values} from ${recipients.from(gate('$3::jsonb'))}
    on conflict (domain_id, email) do update set deleted_at = null, updated_at = excluded.updated_at
    returning id, domain_id, email
  ),
  eml as (
    insert into emails (${emails.columns}) select ${emails.values} from ${emails.from(gate('$4::jsonb'))}
    join rec on rec.email = x.rkey and rec.domain_id = x.domain_id
  ),
  ${outboxInsert('job', gate('$5::jsonb'))},
  ${ACTIVITY_INPUT('act_input', gate('$6::json', `'[]'::json`))},
  ${activityWrites('act_input')}
  select ${v.keyed ? '(select count(*) from claim)::int' : '1'} as claimed, ${outboxWake('job')} as woke,
    ${v.checked ? '(select json_agg(sup) from sup)' : 'null::json'} as matches`;
}

const statements = new Map<string, string>();

/** The variant's prepared statement: its name and its text, made once. */
function statementFor(em: EntityManager, v: Variant): { name: string; text: string } {
  const name = `postbox_accept${v.many ? '_many' : ''}${v.keyed ? '_keyed' : ''}${v.checked ? '_checked' : ''}`;
  let text = statements.get(name);
  if (!text) statements.set(name, (text = acceptSql(em, v)));
  return { name, text };
}

/** Code-point order, as `[...].sort()` orders a send's own recipients. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What the acceptance statement did. */
export interface Written {
  /** False when nothing was written: the key was another request's, or (`matches`) suppressions concern the send. */
  written: boolean;
  /** What the suppression check found, when the statement checked and found something. */
  matches: MatchRow[] | null;
}

/**
 * Acceptance's SQL: the sender's plan and domains, and the one statement that writes an
 * accepted send. Outside a transaction it runs on the ORM's pool as named prepared statements
 * (parsed and planned once per connection); inside one (a bulk send's item) on its connection.
 */
export class AcceptRepository {
  constructor(private readonly em: EntityManager) {}

  /** The account's plan and every domain of it, with what acceptance needs of each. */
  async sender(accountId: string, retention: Record<Plan, number>): Promise<Sender | null> {
    const [row] = await this.run<Sender>(
      'postbox_accept_sender',
      `select a.plan, coalesce((select r.days from plan_retention r where r.plan = a.plan), ($2::jsonb ->> a.plan)::int) as retention_days,
         coalesce(json_agg(json_build_object('id', d.id, 'name', d.name, 'is_verified', d.is_verified,
           'trusted', d.trusted, 'send_paused', coalesce((d.settings->>'send_paused')::boolean, false),
           'ignore_duplicated_recipients', coalesce((d.settings->>'ignore_duplicated_recipients')::boolean, false)))
           filter (where d.id is not null), '[]') as domains
         from accounts a left join domains d on d.account_id = a.id
        where a.id = $1 group by a.id`,
      [accountId, JSON.stringify(retention)],
    );
    return row ?? null;
  }

  /**
   * Writes the send in one statement: the message, its attachments, the recipients (upserted),
   * the emails, the delivery job (its outbox row, jobs/outbox.ts) and the first activities with their
   * daily counts and events. It commits as a whole or not at all. With a claim it writes only if
   * it took the key. With `check` (matchInput of the send's addresses) it first looks for
   * suppressions and writes only when there are none: `rows` were made as if there were none.
   */
  async write(rows: AcceptRows, check: unknown | null): Promise<Written> {
    const v: Variant = { keyed: rows.claim !== null, checked: check !== null };
    const { name, text } = statementFor(this.em, v);
    const attachments = attachmentParams(rows.attachments);
    const values: unknown[] = [
      JSON.stringify([rows.message]),
      attachments.fields,
      JSON.stringify(rows.recipients),
      JSON.stringify(rows.emails),
      rows.jobs,
      JSON.stringify(rows.activities),
    ];
    if (v.keyed) values.push(JSON.stringify([rows.claim]));
    if (v.checked) values.push(JSON.stringify(check));
    values.push(attachments.bytes);
    const [out] = await this.run<{ claimed: number; matches: MatchRow[] | null }>(name, text, values);
    if (out.matches?.length) return { written: false, matches: out.matches };
    return { written: out.claimed > 0, matches: null };
  }

  /**
   * Several unkeyed sends, each with its suppression check, in one statement (accept.batch.ts): all
   * written, or none when any of them has a suppression match (`false`: the caller writes each
   * on its own then). A recipient two of them share is upserted once; recipients go in (domain,
   * address) order, the order every acceptance statement takes their rows in.
   */
  async writeMany(items: { rows: AcceptRows; check: unknown }[]): Promise<boolean> {
    const { name, text } = statementFor(this.em, { keyed: false, checked: true, many: true });
    const recipients = new Map<string, RecipientRow>();
    for (const { rows } of items) for (const r of rows.recipients) if (!recipients.has(`${r.domain_id} ${r.email}`)) recipients.set(`${r.domain_id} ${r.email}`, r);
    const jobs = items.map(({ rows }) => rows.jobs.slice(1, -1).trim()).filter(Boolean);
    const attachments = attachmentParams(items.flatMap(({ rows }) => rows.attachments));
    const values: unknown[] = [
      JSON.stringify(items.map(({ rows }) => rows.message)),
      attachments.fields,
      JSON.stringify([...recipients.values()].sort((a, b) => (a.domain_id === b.domain_id ? cmp(a.email, b.email) : cmp(a.domain_id, b.domain_id)))),
      JSON.stringify(items.flatMap(({ rows }) => rows.emails)),
      `[${jobs.join(',')}]`,
      JSON.stringify(items.flatMap(({ rows }) => rows.activities)),
      JSON.stringify(items.map(({ check }) => check)),
      attachments.bytes,
    ];
    const [out] = await this.run<{ matches: MatchRow[] | null }>(name, text, values);
    return !out.matches?.length;
  }

  private run<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    return sqlRows<R>(this.em, { name, text }, values);
  }
}
