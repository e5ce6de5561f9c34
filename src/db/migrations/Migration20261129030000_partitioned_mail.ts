import { Migration } from '@mikro-orm/migrations';
import { firstWeeksSql, PARTITION_FUNCTIONS } from '../partitions.js';

/** A mail table: its indexes besides the primary key (name, then what follows `on "<table>"`) and its foreign keys to tables outside the family. */
interface MailTable {
  table: string;
  indexes: [string, string][];
  foreignKeys: [string, string][];
}

const cascade = (column: string, parent: string): string => `foreign key ("${column}") references "${parent}" ("id") on delete cascade`;

const MAIL: MailTable[] = [
  {
    table: 'messages',
    indexes: [
      ['messages_account_id_created_at_index', '("account_id", "created_at")'],
      ['messages_bulk_email_id_index', '("bulk_email_id")'],
      ['messages_template_id_index', '("template_id")'],
      ['messages_purge_after_index', '("purge_after")'],
      ['messages_domain_id_waiting_index', '("domain_id") where "waiting"'],
    ],
    foreignKeys: [
      ['messages_account_id_foreign', cascade('account_id', 'accounts')],
      ['messages_domain_id_foreign', cascade('domain_id', 'domains')],
    ],
  },
  {
    table: 'emails',
    indexes: [
      ['emails_account_id_created_at_index', '("account_id", "created_at")'],
      ['emails_domain_id_created_at_index', '("domain_id", "created_at")'],
      ['emails_message_id_index', '("message_id")'],
      ['emails_recipient_id_index', '("recipient_id")'],
      ['emails_smtp_message_id_index', '("smtp_message_id")'],
    ],
    foreignKeys: [
      ['emails_account_id_foreign', cascade('account_id', 'accounts')],
      ['emails_domain_id_foreign', cascade('domain_id', 'domains')],
      ['emails_recipient_id_foreign', cascade('recipient_id', 'recipients')],
    ],
  },
  { table: 'message_attachments', indexes: [['message_attachments_message_id_index', '("message_id")']], foreignKeys: [] },
  {
    table: 'activities',
    indexes: [
      ['activities_account_id_created_at_index', '("account_id", "created_at")'],
      ['activities_domain_id_created_at_index', '("domain_id", "created_at")'],
      ['activities_email_id_index', '("email_id")'],
    ],
    foreignKeys: [
      ['activities_account_id_foreign', cascade('account_id', 'accounts')],
      ['activities_domain_id_foreign', cascade('domain_id', 'domains')],
    ],
  },
  {
    table: 'captured_mails',
    indexes: [
      ['captured_mails_account_id_created_at_index', '("account_id", "created_at")'],
      ['captured_mails_email_id_index', '("email_id")'],
      ['captured_mails_to_index', '("to")'],
    ],
    foreignKeys: [],
  },
];

/** The foreign keys inside the family, replaced by the triggers below. */
const INNER_KEYS: [string, string, string][] = [
  ['emails', 'emails_message_id_foreign', cascade('message_id', 'messages')],
  ['message_attachments', 'message_attachments_message_id_foreign', cascade('message_id', 'messages')],
  ['activities', 'activities_email_id_foreign', cascade('email_id', 'emails')],
];

/**
 * lib/ids.ts sortablePrefix in SQL: a sortable id's first six characters for an instant
 * (test/retention/mail-weeks.test.ts compares them), held to 000000..zzzzzz for instants before
 * 2020 or after 2088, which a date filter may name.
 */
const ID_PREFIX_FUNCTION = `create or replace function postbox_id_prefix(at timestamptz) returns text language sql immutable as $$
    select string_agg(substr('0123456789abcdefghijklmnopqrstuvwxyz', ((s / (36::numeric ^ p)::bigint) % 36)::int + 1, 1), '' order by p desc)
      from (select least(greatest(0, floor(extract(epoch from at) - 1577836800)), 2176782335)::bigint as s) x, generate_series(0, 5) p $$;`;

/**
 * The activity list's page (Migration20261129020000_activity_purge_after's, read in three steps)
 * reading only the weeks it needs. A generic plan (the function's) starts every partition it may
 * read, so each step bounds its table's ids by values the step before computed (plpgsql
 * variables, which prune the weeks as the plan starts): the page by its dates (an activity's id
 * is made when it is written, within moments of its created_at; a day either side), its emails by
 * the page's email ids, their messages by those emails' message ids. bench:scale runs with a year
 * of weeks.
 */
const ACTIVITY_PAGE_FUNCTION = `create or replace function "activity_domain_page"(
    lifecycle text[], p_domain text, p_account text, p_from timestamptz, p_before timestamptz,
    p_only text[], p_hidden text[], p_limit int, p_offset int)
  returns table (
    found text, id text, domain_id text, type text, suppression_reason text, created_at timestamptz, updated_at timestamptz,
    e_id text, from_email text, subject text, text text, html text, status text, tags text[],
    e_created_at timestamptz, e_updated_at timestamptz,
    r_id text, r_email text, r_created_at timestamptz, r_updated_at timestamptz, r_deleted_at timestamptz,
    p_at timestamptz, p_rank int)
  language plpgsql stable
  set plan_cache_mode = force_generic_plan
  -- The generic plan guesses that the dates and the id bounds leave few rows, and would gather
  -- them all through two bitmaps to sort them: the page walks the index of times newest first.
  set enable_bitmapscan = off
  as $$
  #variable_conflict use_column
  declare
    v_domain text;
    v_lo text := postbox_id_prefix(p_from - interval '1 day');
    v_hi text := postbox_id_prefix(p_before + interval '1 day');
    v_ids text[];
    v_emails text[];
    v_alo text; v_ahi text; v_elo text; v_ehi text; v_mlo text; v_mhi text;
  begin
    select dm.id into v_domain from domains dm where dm.id = p_domain and dm.account_id = p_account;
    if v_domain is null then
      return;
    end if;
    select array_agg(pg.id order by pg.moment desc, pg.rank desc, pg.id desc), array_agg(pg.email_id),
           min(pg.id), max(pg.id), min(pg.email_id), max(pg.email_id)
      into v_ids, v_emails, v_alo, v_ahi, v_elo, v_ehi
      from (
        select a.id, a.email_id, a.created_at as moment, array_position(lifecycle, a.type::text) as rank from activities a
         where a.domain_id = v_domain and a.account_id = p_account and a.created_at >= p_from and a.created_at < p_before
           and a.id >= v_lo and a.id < v_hi
           and (cardinality(p_only) = 0 or a.type = any(p_only)) and a.type <> all(p_hidden)
           and (a.purge_after is null or a.purge_after > now())
         order by a.created_at desc, rank desc, a.id desc limit p_limit offset p_offset
      ) pg;
    -- Read by the emails' key, then reduced (offset 0): min and max alone would walk the index of message ids.
    select min(x.message_id), max(x.message_id) into v_mlo, v_mhi
      from (select e.message_id from emails e where e.id = any(v_emails) and e.id >= v_elo and e.id <= v_ehi offset 0) x;
    return query
    select v_domain::text, x.a_id, x.a_domain_id, x.a_type, x.a_reason, x.a_created_at, x.a_updated_at,
           x.e_id, x.m_from, x.e_subject, x.body_text, x.body_html, x.e_status, x.e_tags, x.e_created_at, x.e_updated_at,
           x.r_id, x.r_email, x.r_created_at, x.r_updated_at, x.r_deleted_at, x.page_at, x.page_rank
      from (select 1) one left join lateral (
        select a.id::text as a_id, a.domain_id::text as a_domain_id, a.type::text as a_type,
          a.suppression_reason::text as a_reason, a.created_at as a_created_at, a.updated_at as a_updated_at,
          e.id::text as e_id, m.from_email::text as m_from, e.subject as e_subject,
          -- Bodies dropped after delivery (track_content off) are not shown, not even the template's.
          case when m.content_cleared_at is null then coalesce(m.text, tr.text, t.text) end as body_text,
          case when m.content_cleared_at is null then coalesce(m.html, tr.html, t.html) end as body_html,
          e.status::text as e_status, e.tags as e_tags, e.created_at as e_created_at, e.updated_at as e_updated_at,
          r.id::text as r_id, r.email::text as r_email, r.created_at as r_created_at, r.updated_at as r_updated_at,
          r.deleted_at as r_deleted_at, a.created_at as page_at, array_position(lifecycle, a.type::text) as page_rank, pg.ord
        from unnest(v_ids) with ordinality as pg(id, ord)
        join activities a on a.id = pg.id and a.id >= v_alo and a.id <= v_ahi
        join emails e on e.id = a.email_id and e.id >= v_elo and e.id <= v_ehi
        join messages m on m.id = e.message_id and m.id >= v_mlo and m.id <= v_mhi
        join recipients r on r.id = e.recipient_id
        left join templates t on t.id = m.template_id and t.account_id = m.account_id
        -- What was sent: the translation in the send's language when there is one (as delivery reads it).
        left join template_translations tr on tr.template_id = t.id and tr.language = m.language
      ) x on true
      order by x.ord;
  end $$;`;

/** The table as it was becomes the default partition of a new parent partitioned by range of `id`. */
function partitionSql(t: MailTable): string[] {
  const dflt = `${t.table}_default`;
  return [
    `alter table "${t.table}" rename to "${dflt}";`,
    `alter table "${dflt}" rename constraint "${t.table}_pkey" to "${dflt}_pkey";`,
    ...t.indexes.map(([name]) => `alter index "${name}" rename to "${name.replace(t.table, dflt)}";`),
    ...t.foreignKeys.map(([name]) => `alter table "${dflt}" rename constraint "${name}" to "${name.replace(t.table, dflt)}";`),
    `create table "${t.table}" (like "${dflt}" including defaults including generated including storage) partition by range ("id");`,
    `alter table "${t.table}" add constraint "${t.table}_pkey" primary key ("id");`,
    ...t.indexes.map(([name, def]) => `create index "${name}" on "${t.table}" ${def};`),
    // Made before the default is attached: the default's own keys, being the same, are taken over without a check.
    ...t.foreignKeys.map(([name, def]) => `alter table "${t.table}" add constraint "${name}" ${def};`),
    `alter table "${t.table}" attach partition "${dflt}" default;`,
  ];
}

/**
 * The mail family (messages, emails, message_attachments, activities, captured_mails) partitioned
 * by week of their ids, as the webhook tables are (db/partitions.ts), so that retention drops a
 * week of mail whole (modules/retention/mail-weeks.ts). Each table as it was becomes its default
 * partition (its indexes and keys taken over by the parent's), and this week and the next four are
 * made, moving their rows out of it. An email's, an attachment's and a message's ids are made at
 * the acceptance's instant (sending/accept.rows.ts), so a message and its parts share a week, and
 * delivery finds the parts of its messages in their week alone (db/partitions.ts partsRange). The
 * attachments written before take their message's second here (their ids are never shown); an
 * email was made a moment after its message already, unless both ids were random (written before
 * ids were sortable): such an email, if still pending, would not be found by delivery.
 *
 * The foreign keys inside the family go: a key to a partitioned table makes every drop of one of
 * its weeks check the referencing rows of every week. Statement triggers take their place for
 * the rows deleted one by one (an account's, a domain's, a recipient's, a default partition's
 * past retention): a message's emails and attachments go with it, an email's activities and
 * captured copies with it. Activities gain keys to their account and domain, so that those
 * deletions reach them directly.
 */
export class Migration20261129030000_partitioned_mail extends Migration {

  override name = 'Migration20261129030000_partitioned_mail';

  override up(): void | Promise<void> {
    for (const [table, name] of INNER_KEYS) this.addSql(`alter table "${table}" drop constraint "${name}";`);
    this.addSql(`alter table "activities" add constraint "activities_account_id_foreign" ${cascade('account_id', 'accounts')};`);
    this.addSql(`alter table "activities" add constraint "activities_domain_id_foreign" ${cascade('domain_id', 'domains')};`);
    // An attachment's id takes its message's second, as new ones are made (db/partitions.ts partsRange).
    this.addSql(`update "message_attachments" set "id" = left("message_id", 6) || substr("id", 7) where left("id", 6) <> left("message_id", 6);`);
    for (const fn of PARTITION_FUNCTIONS) this.addSql(fn);
    for (const t of MAIL) for (const sql of partitionSql(t)) this.addSql(sql);
    this.addSql(`create function postbox_messages_deleted() returns trigger language plpgsql as $$
      begin
        delete from emails e using deleted_messages g where e.message_id = g.id;
        delete from message_attachments a using deleted_messages g where a.message_id = g.id;
        return null;
      end $$;`);
    this.addSql(`create trigger messages_delete_parts after delete on "messages" referencing old table as deleted_messages for each statement execute function postbox_messages_deleted();`);
    this.addSql(`create function postbox_emails_deleted() returns trigger language plpgsql as $$
      begin
        delete from activities a using deleted_emails g where a.email_id = g.id;
        delete from captured_mails c using deleted_emails g where c.email_id = g.id;
        return null;
      end $$;`);
    this.addSql(`create trigger emails_delete_parts after delete on "emails" referencing old table as deleted_emails for each statement execute function postbox_emails_deleted();`);
    for (const t of MAIL) for (const sql of firstWeeksSql({ table: t.table, idPrefix: '' }, Date.now())) this.addSql(sql);
    this.addSql(ID_PREFIX_FUNCTION);
    this.addSql(ACTIVITY_PAGE_FUNCTION);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists messages_delete_parts on "messages";`);
    this.addSql(`drop trigger if exists emails_delete_parts on "emails";`);
    this.addSql(`drop function if exists postbox_messages_deleted();`);
    this.addSql(`drop function if exists postbox_emails_deleted();`);
    for (const t of MAIL) {
      const plain = `${t.table}_plain`;
      // Without the generated column (a stored one takes no values), made again once the rows are in.
      this.addSql(`create table "${plain}" (like "${t.table}" including defaults including storage);`);
      this.addSql(`insert into "${plain}" select * from "${t.table}";`);
      if (t.table === 'messages') {
        this.addSql(`alter table "${plain}" drop column "waiting";`);
        this.addSql(`alter table "${plain}" add column "waiting" boolean generated always as ("status" in ('scheduled', 'paused')) stored;`);
      }
      this.addSql(`drop table "${t.table}";`);
      this.addSql(`alter table "${plain}" rename to "${t.table}";`);
      this.addSql(`alter table "${t.table}" add constraint "${t.table}_pkey" primary key ("id");`);
      if (t.table === 'messages' || t.table === 'emails') this.addSql(`alter table "${t.table}" set (fillfactor = 70);`);
      for (const [name, def] of t.indexes) this.addSql(`create index "${name}" on "${t.table}" ${def};`);
      for (const [name, def] of t.foreignKeys) this.addSql(`alter table "${t.table}" add constraint "${name}" ${def};`);
    }
    this.addSql(`alter table "activities" drop constraint "activities_account_id_foreign";`);
    this.addSql(`alter table "activities" drop constraint "activities_domain_id_foreign";`);
    for (const [table, name, def] of INNER_KEYS) this.addSql(`alter table "${table}" add constraint "${name}" ${def};`);
  }

}
