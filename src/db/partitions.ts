import { sortablePrefix } from '../lib/ids.js';

/**
 * Log tables partitioned by time, through their ids: a sortable id (lib/ids.ts) starts with its
 * second, so a range of ids is a range of time, and a table partitioned by range of `id` keeps
 * its primary key on `id` alone and prunes a lookup by id to one partition. One partition per
 * week (Monday 00:00 UTC to the next), named `<table>_p<yyyymmdd>` after its first day; rows
 * whose ids fall in no week made (ids written before ids were sortable) live in `<table>_default`.
 * Retention drops a week whole (modules/retention/partitions.ts).
 */
export const PARTITION_DAYS = 7;
const PERIOD_MS = PARTITION_DAYS * 86_400_000;
/** A Monday, 00:00 UTC: weeks are counted from it. */
const MONDAY_MS = Date.UTC(2019, 11, 30);

/** The start (ms) of the week that holds `atMs`. */
export function periodStart(atMs: number): number {
  return MONDAY_MS + Math.floor((atMs - MONDAY_MS) / PERIOD_MS) * PERIOD_MS;
}

export const periodEnd = (startMs: number) => startMs + PERIOD_MS;

/** A table partitioned by time: its name and the fixed start of its ids (`msg_` for webhook deliveries). */
export interface PartitionedTable {
  table: string;
  idPrefix: string;
}

export interface Period {
  /** The partition's name. */
  name: string;
  startMs: number;
  /** Its ids: from `lo` (included) to `hi` (excluded). */
  lo: string;
  hi: string;
}

export function periodOf(t: PartitionedTable, startMs: number): Period {
  const day = new Date(startMs).toISOString().slice(0, 10).replaceAll('-', '');
  return { name: `${t.table}_p${day}`, startMs, lo: t.idPrefix + sortablePrefix(startMs), hi: t.idPrefix + sortablePrefix(periodEnd(startMs)) };
}

/** The week a partition's name says it starts, or null for a name that is not a week's (the default). */
export function startOfName(t: PartitionedTable, name: string): number | null {
  const m = new RegExp(`^${t.table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** The weeks from the one holding `fromMs` to the one holding `toMs`. */
export function periodsBetween(t: PartitionedTable, fromMs: number, toMs: number): Period[] {
  const out: Period[] = [];
  for (let s = periodStart(fromMs); s <= toMs; s += PERIOD_MS) out.push(periodOf(t, s));
  return out;
}

/** Weeks a migration that partitions a table makes at once: this one and the next four (the retention job keeps four ahead). */
const WEEKS_AT_FIRST = 5;

/** The statements that make the weeks of a table newly partitioned, from the one under way, moving their rows out of its default. */
export function firstWeeksSql(t: PartitionedTable, nowMs: number): string[] {
  return periodsBetween(t, nowMs, nowMs + (WEEKS_AT_FIRST - 1) * PERIOD_MS).map(
    (p) => `select postbox_partition_attach('${t.table}', '${p.name}', '${p.lo}', '${p.hi}');`,
  );
}

/**
 * A statement's condition that `column` (a partitioned table's id) is one of the ids in
 * `source`.`sourceColumn` (a CTE or a set of rows of the same statement), written so that only
 * the weeks holding them are read: their least and greatest bound the partitions read, once the
 * statement starts (run-time pruning, which works for a prepared statement's generic plan, where
 * `= any(array)` alone is not used to prune), and the array makes each partition's read a probe
 * of its primary key. A join on the id alone reads every week (bench:webhooks).
 */
export function idsFrom(column: string, source: string, sourceColumn: string): string {
  return `${column} = any(array(select ${sourceColumn} from ${source}))
        and ${column} >= (select min(${sourceColumn}) from ${source}) and ${column} <= (select max(${sourceColumn}) from ${source})`;
}

/**
 * The least and greatest of `ids`, for idsIn's bounds: passed as parameters, they let a custom
 * plan leave out at planning the weeks they do not reach (a bound computed in the statement, as
 * idsFrom's, prunes only at run time, after every week was planned: with a year of weeks, the
 * planning alone cost more than the rest of delivery's statements, bench:drain).
 */
export function idRange(ids: readonly string[]): [string, string] {
  let lo = ids[0] ?? '';
  let hi = lo;
  for (const id of ids) {
    if (id < lo) lo = id;
    if (id > hi) hi = id;
  }
  return [lo, hi];
}

/** `column` (a partitioned table's id) is one of `array`, bounded by `lo` and `hi` (parameters: idRange of the array). */
export function idsIn(column: string, array: string, lo: string, hi: string): string {
  return `${column} = any(${array}) and ${column} >= ${lo} and ${column} <= ${hi}`;
}

/** Seconds a part's id may be made after its message's: the same instant now, a moment later before. */
const PART_LAG_SECONDS = 60;

/**
 * The range of ids the parts (emails, attachments) of these messages have: from the oldest
 * message's second to a minute after the newest's, excluded. A part's id is made at its message's
 * instant (sending/accept.rows.ts; an email a moment later, before; an attachment made before
 * that carries its message's second since Migration20261129030000_partitioned_mail), so both
 * bounds, passed as parameters, leave out at planning every week but the messages' own.
 */
export function partsRange(messageIds: readonly string[]): [string, string] {
  const [lo, hi] = idRange(messageIds);
  const second = parseInt(hi.slice(0, 6), 36);
  const ceil = Number.isFinite(second) ? (second + PART_LAG_SECONDS).toString(36).padStart(6, '0') : '~';
  return [lo.slice(0, 6), ceil];
}

/**
 * The functions that make a week's partition; the statements around them are in
 * modules/retention/partition.repository.ts. Identifiers and bounds are quoted by format() in
 * the database, never written into a statement's text by the caller.
 *
 * `postbox_partition_guard` (a short lock of the default partition) adds a check to the default
 * that refuses the week's ids from then on, unvalidated; `postbox_partition_attach` moves the
 * week's rows out of the default, validates the check (a scan that blocks no reads or writes),
 * and attaches the week, which then needs no scan under the attach's lock. Each is a no-op when
 * its work is done, so a run that stops half-way is finished by the next. A week already under
 * way (rows of it arrive now) skips the guard: the attach then scans the default under its lock.
 */
export const PARTITION_FUNCTIONS = [
  `create or replace function postbox_partition_guard(parent text, child text, lo text, hi text) returns void language plpgsql as $$
    begin
      perform set_config('lock_timeout', '5s', true);
      if not exists (select 1 from pg_constraint where conname = child || '_out' and conrelid = (parent || '_default')::regclass) then
        execute format('alter table %I add constraint %I check (id < %L or id >= %L) not valid', parent || '_default', child || '_out', lo, hi);
      end if;
    end $$;`,
  `create or replace function postbox_partition_attach(parent text, child text, lo text, hi text) returns boolean language plpgsql as $$
    declare
      dflt text := parent || '_default';
      guard text := child || '_out';
      opts text;
      cols text;
    begin
      perform set_config('lock_timeout', '5s', true);
      if exists (select 1 from pg_inherits where inhrelid = to_regclass(child) and inhparent = parent::regclass) then
        return false;
      end if;
      if to_regclass(child) is null then
        execute format('create table %I (like %I including defaults including generated including storage)', child, parent);
        -- A partitioned table holds no storage options: each week takes its default's (fillfactor).
        select array_to_string(reloptions, ', ') into opts from pg_class where oid = dflt::regclass;
        if opts is not null then
          execute format('alter table %I set (%s)', child, opts);
        end if;
      end if;
      -- A generated column (messages.waiting) takes no values: it is made again in the week.
      select string_agg(quote_ident(attname), ', ' order by attnum) into cols from pg_attribute
       where attrelid = dflt::regclass and attnum > 0 and not attisdropped and attgenerated = '';
      execute format('with moved as (delete from %I where id >= %L and id < %L returning %s) insert into %I (%s) select %s from moved', dflt, lo, hi, cols, child, cols, cols);
      if exists (select 1 from pg_constraint where conname = guard and conrelid = dflt::regclass) then
        execute format('alter table %I validate constraint %I', dflt, guard);
      end if;
      execute format('alter table %I attach partition %I for values from (%L) to (%L)', parent, child, lo, hi);
      execute format('alter table %I drop constraint if exists %I', dflt, guard);
      return true;
    end $$;`,
  // Dropping a week takes the parent's lock for a moment; it waits at most lock_timeout for it.
  `create or replace function postbox_partition_drop(parent text, child text) returns void language plpgsql as $$
    begin
      perform set_config('lock_timeout', '5s', true);
      if exists (select 1 from pg_inherits where inhrelid = to_regclass(child) and inhparent = parent::regclass) then
        execute format('drop table %I', child);
      end if;
    end $$;`,
];
