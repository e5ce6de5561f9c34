import type { EntityManager } from '@mikro-orm/postgresql';
import { idRange, idsIn, partsRange } from '../../db/partitions.js';
import { sqlRow, sqlRows, textArray } from '../../db/sql.js';
import type { LeasedJob } from './delivery-lease.entity.js';
import type { DomainSettings } from '../../modules/domains/domain.entity.js';
import type { MessageContentRow } from '../../modules/messages/message.entity.js';
import { DELIVERABLE_MESSAGE, PENDING_EMAIL, type MessageStatus } from '../../modules/messages/message.status.js';

const SENDING = 'sending' satisfies MessageStatus;
const SENT = 'sent' satisfies MessageStatus;

/** A pending email delivery claimed, with what its MIME message needs of it. */
export interface ClaimedEmail {
  id: string;
  message_id: string;
  position: number;
  to_email: string;
  to_name: string | null;
  subject: string;
  tags: string[];
  recipient_id: string;
  /** The Message-ID header it goes out with (`<email id@domain>`), fixed at acceptance (accept.rows.ts). */
  smtp_message_id: string;
}

/** A message delivery took (now `sending`), its content (the template's where the message has none) and its domain. */
export interface TakenMessage extends MessageContentRow {
  id: string;
  account_id: string;
  domain_id: string;
  /** Its retention's end, for the activities it writes (ActivityEmail.purge_after). */
  purge_after: string | null;
  domain_name: string;
  domain_settings: DomainSettings;
  /** The domain's tracking CNAME is verified: its links may use its own tracking host. */
  domain_cname_verified: boolean;
  /** Verified with its return-path CNAME found (domains.is_dns_active): bounces to its return-path host reach us. */
  domain_dns_active: boolean;
  dkim_selector: string;
  dkim_private_key_enc: string;
  /** The IP pool of its domain, else of its account (IP_POOLS). */
  ip_pool: string | null;
  has_attachments: boolean;
  /** Its pending emails before this claim; more than `emails` when another worker holds some. */
  pending: number;
  emails: ClaimedEmail[];
}

/** The lease row a batch's claim writes (delivery-lease.entity.ts), or keeps when it took the batch over. */
export interface BatchLease {
  id: string;
  owner: string;
  seconds: number;
  finalIds: string[];
  jobs: LeasedJob[];
}

/** Why delivery did not take a message it was asked for. */
export interface Blocked {
  id: string;
  paused: boolean;
  trusted: boolean;
  template_missing: boolean;
}

/**
 * take's statement (its parameters in take's order). The messages' ids come with their least and
 * greatest ($10, $11) and the range of their parts' ids ($12, $13: db/partitions.ts partsRange),
 * as parameters, so that planning leaves out the weeks they do not reach.
 */
const TAKE = `with taken as (
    update messages m set status = $1, updated_at = now()
      from domains d
     where ${idsIn('m.id', '$2::text[]', '$10', '$11')} and d.id = m.domain_id and m.status = any($3::text[])
       and not coalesce((d.settings->>'send_paused')::boolean, false)
       and ($4::boolean or not d.trusted)
       and (m.template_id is null or exists (select 1 from templates t where t.id = m.template_id))
     returning m.id
  ),
  -- Neither this claim nor the outcome changes an indexed column of the email (its Message-ID
  -- is fixed at acceptance), so with the room emails' fillfactor leaves in the page both can
  -- be HOT updates: a new row version, no new index entries.
  claimed as (
    update emails e set lease_until = now() + make_interval(secs => $5::int)
     where e.message_id = any($2::text[]) and e.message_id in (select id from taken)
       -- The messages' ids as well as their range: the planner then reads the index of message
       -- ids for those few, not every email of the range's minute.
       and e.id >= $12 and e.id < $13 and e.status = any($6::text[])
       and (e.lease_until is null or e.lease_until < now())
     returning e.id, e.message_id, e.position, e.to_email, e.to_name, e.subject, e.tags, e.recipient_id, e.smtp_message_id
  ),
  -- The batch's lease row (delivery-lease.entity.ts), with the same lease as its emails, its
  -- owner and its jobs; a batch taken over keeps the row its taker made its own.
  batch_lease as (
    insert into delivery_leases (id, owner, lease_until, message_ids, final_ids, jobs)
    values ($8, $14, now() + make_interval(secs => $5::int), $2::text[], $9::text[], $15::jsonb)
    on conflict (id) do nothing
  )
  select m.id, m.account_id, m.domain_id, m.purge_after::text as purge_after, m.from_email, m.from_name, m.reply_to, m.cc, m.bcc,
         coalesce(m.html, tr.html, t.html) as html, coalesce(m.text, tr.text, t.text) as text,
         m.personalization, m.settings, m.headers, m.in_reply_to, m.references, m.list_unsubscribe, m.precedence_bulk,
         d.name as domain_name, d.settings as domain_settings, d.is_cname_verified as domain_cname_verified,
         d.is_dns_active as domain_dns_active, d.dkim_selector, d.dkim_private_key_enc,
         coalesce(d.ip_pool, (select ac.ip_pool from accounts ac where ac.id = m.account_id)) as ip_pool,
         exists (select 1 from message_attachments a where a.message_id = m.id and a.id >= $12 and a.id < $13) as has_attachments,
         (select count(*)::int from emails p where p.message_id = m.id and p.id >= $12 and p.id < $13 and p.status = any($7::text[])) as pending,
         coalesce((select json_agg(c order by c.position) from claimed c where c.message_id = m.id), '[]'::json) as emails
    from messages m
    join domains d on d.id = m.domain_id
    left join templates t on t.id = m.template_id
    -- The translation in the send's language, when the template has one (SPEC.md's language).
    left join template_translations tr on tr.template_id = m.template_id and tr.language = m.language
   where ${idsIn('m.id', '$2::text[]', '$10', '$11')} and m.id in (select id from taken)`;

/**
 * Delivery's statements, each for many messages or emails at once. Emails are claimed with a
 * lease (`lease_until`) rather than a row lock held across the SMTP exchange: the claim, the
 * renewals and the outcomes are short statements, and a worker that dies stops renewing, so its
 * emails are free again when the lease runs out.
 */
export class DeliveryRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * One statement: moves to `sending` the messages that may go now (still deliverable, domain not
   * paused, not a sandbox-trusted domain unless `allowTrusted`, template still there), claims
   * their pending emails that no live lease holds, and returns both with the content to build.
   * It runs in the transaction that fetched the batch's jobs, or alone for a batch taken over.
   * Not a named prepared statement: each run is planned for its ids (db/partitions.ts idRange), and
   * a prepared one's generic plan, built again whenever a table of it is analyzed, would take in
   * every week a long retention keeps (bench:drain runs with a year of them).
   */
  async take(messageIds: string[], lease: BatchLease, allowTrusted: boolean): Promise<TakenMessage[]> {
    return sqlRows<TakenMessage>(
      this.em,
      TAKE,
      [
        SENDING,
        textArray(messageIds),
        textArray(DELIVERABLE_MESSAGE),
        allowTrusted,
        lease.seconds,
        textArray(PENDING_EMAIL),
        textArray(PENDING_EMAIL),
        lease.id,
        textArray(lease.finalIds),
        ...idRange(messageIds),
        ...partsRange(messageIds),
        lease.owner,
        JSON.stringify(lease.jobs),
      ],
    );
  }

  /** Of messages `take` did not take, those still deliverable, with what held them back. */
  async blocked(messageIds: string[]): Promise<Blocked[]> {
    if (!messageIds.length) return [];
    return sqlRows<Blocked>(
      this.em,
      `select m.id, coalesce((d.settings->>'send_paused')::boolean, false) as paused, d.trusted,
              (m.template_id is not null and not exists (select 1 from templates t where t.id = m.template_id)) as template_missing
         from messages m join domains d on d.id = m.domain_id
        where ${idsIn('m.id', '$1::text[]', '$3', '$4')} and m.status = any($2::text[])`,
      [textArray(messageIds), textArray(DELIVERABLE_MESSAGE), ...idRange(messageIds)],
    );
  }

  /**
   * The attachments of these messages, in order. Their content crosses as base64 text, not as
   * bytea: the driver reads bytea's hex form (twice the bytes) into a Buffer in one task on the
   * event loop, where base64 is decoded natively (bench/worst-inputs.ts, the 25 MB attachment).
   */
  async attachments(messageIds: string[]) {
    if (!messageIds.length) return [];
    const rows = await sqlRows<{ message_id: string; filename: string; disposition: 'inline' | 'attachment'; content_id: string | null; content: string }>(
      this.em,
      `select message_id, filename, disposition, content_id, encode(content, 'base64') as content from message_attachments
        where message_id = any($1::text[]) and id >= $2 and id < $3 order by message_id, position`,
      [textArray(messageIds), ...partsRange(messageIds)],
    );
    return rows.map((r) => ({ ...r, content: Buffer.from(r.content, 'base64') }));
  }

  /** Frees the leases of emails put off without an outcome (their destination's pace), so their message's next job claims them. */
  async free(emailIds: string[]): Promise<void> {
    await sqlRows(this.em, `update emails set lease_until = null where ${idsIn('id', '$1::text[]', '$2', '$3')}`, [textArray(emailIds), ...idRange(emailIds)]);
  }

  /**
   * Frees a batch's lease and its emails' without an outcome (a batch that failed before sending
   * them), when `owner` still owns it; answers whether it did.
   */
  async release(leaseId: string, owner: string, emailIds: string[]): Promise<boolean> {
    const row = await sqlRow<{ owned: boolean }>(
      this.em,
      `with ended as (delete from delivery_leases where id = $1 and owner = $5 returning id),
       freed as (update emails set lease_until = null where ${idsIn('id', '$2::text[]', '$3', '$4')} and exists (select 1 from ended))
       select exists (select 1 from ended) as owned`,
      [leaseId, textArray(emailIds), ...idRange(emailIds), owner],
    );
    return row?.owned ?? false;
  }

  /**
   * `sent` for those of these messages with no email pending any more, in one statement that also
   * drops the bodies of those whose track_content is off (the send's `settings.track_content`,
   * else its domain's): html, text, personalization and the attachments. Until then they are kept,
   * so a message is whole for every retry; once all its emails are settled nothing reads them.
   * Answers how many messages had their bodies dropped, and whether `owner` still owned the
   * batch's lease row `leaseId`, which goes with it (its caller then settles the batch's jobs in
   * the same transaction; a row another worker took over is that worker's to end).
   */
  async finishDone(messageIds: string[], leaseId: string, owner: string): Promise<{ dropped: number; owned: boolean }> {
    const row = await sqlRow<{ dropped: number; owned: boolean }>(
      this.em,
      `with fin as materialized (
         select m.id,
                not coalesce((m.settings->>'track_content')::boolean, (d.settings->>'track_content')::boolean, true) as drop_content
           from messages m join domains d on d.id = m.domain_id
          where ${idsIn('m.id', '$1::text[]', '$6', '$7')} and m.status = $2
            -- A scalar subquery, read per message by the index of message ids (as take's pending
            -- count is): written as not exists, it became an anti-join that walked every email of
            -- the parts' range once per message, a young week's statistics promising it few rows.
            -- Materialized, so it runs once per message, not once per row the update's join tries.
            and (select 1 from emails e where e.message_id = m.id and e.id >= $8 and e.id < $9 and e.status = any($3::text[]) limit 1) is null
       ),
       done as (
         update messages m
            set status = $4, updated_at = now(),
                html = case when fin.drop_content then null else m.html end,
                text = case when fin.drop_content then null else m.text end,
                personalization = case when fin.drop_content then '{}'::jsonb else m.personalization end,
                content_cleared_at = case when fin.drop_content then now() else m.content_cleared_at end
           from fin
          where ${idsIn('m.id', '$1::text[]', '$6', '$7')} and m.id = fin.id and m.status = $2
          returning m.id, fin.drop_content
       ),
       attachments_dropped as (
         delete from message_attachments a using done
          where a.message_id = any($1::text[]) and a.message_id = done.id and a.id >= $8 and a.id < $9 and done.drop_content
       ),
       lease_ended as (delete from delivery_leases where id = $5 and owner = $10 returning id)
       select (select count(*) filter (where drop_content) from done)::int as dropped, exists (select 1 from lease_ended) as owned`,
      [textArray(messageIds), SENDING, textArray(PENDING_EMAIL), SENT, leaseId, ...idRange(messageIds), ...partsRange(messageIds), owner],
    );
    return { dropped: row?.dropped ?? 0, owned: row?.owned ?? false };
  }
}
