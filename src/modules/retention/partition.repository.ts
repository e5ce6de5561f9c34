import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows } from '../../db/sql.js';
import type { Period } from '../../db/partitions.js';

/**
 * The statements that make and drop a partitioned log table's weeks (db/partitions.ts holds the
 * functions they call). Each runs on its own, outside any transaction: a guard's lock is held for
 * one short statement, and the scan that validates it runs apart from the attach's lock.
 */
export class PartitionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The names of `parent`'s partitions (its weeks and its default). */
  async partitions(parent: string): Promise<string[]> {
    const rows = await sqlRows<{ name: string }>(
      this.em,
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass($1)`,
      [parent],
    );
    return rows.map((r) => r.name);
  }

  /** Makes a week not yet under way: the default refuses its ids, then the week is attached. */
  async makeAhead(parent: string, p: Period): Promise<void> {
    await sqlRow(this.em, `select postbox_partition_guard($1, $2, $3, $4)`, [parent, p.name, p.lo, p.hi]);
    await this.attach(parent, p);
  }

  /** Makes a week (one under way too: then the default is scanned under the attach's lock). */
  async attach(parent: string, p: Period): Promise<void> {
    await sqlRow(this.em, `select postbox_partition_attach($1, $2, $3, $4)`, [parent, p.name, p.lo, p.hi]);
  }

  /** Drops a week, with its rows. */
  async drop(parent: string, name: string): Promise<void> {
    await sqlRow(this.em, `select postbox_partition_drop($1, $2)`, [parent, name]);
  }

  /**
   * Whether a week of messages still holds mail to keep: one whose retention has not run out (or
   * that has none), or one waiting for its send time or its domain. Each is a probe of an index
   * (purge_after; the partial one of waiting messages), within the week's partition.
   */
  async mailWeekHeld(week: Period, now: Date): Promise<boolean> {
    const row = await sqlRow<{ held: boolean }>(
      this.em,
      `select exists (select 1 from messages where id >= $1 and id < $2 and (purge_after is null or purge_after > $3))
           or exists (select 1 from messages where id >= $1 and id < $2 and waiting) as held`,
      [week.lo, week.hi, now],
    );
    return row?.held ?? true;
  }

  /** The plans of the accounts there are: the longest of their retentions bounds what a week may still hold. */
  async plansInUse(): Promise<string[]> {
    const rows = await sqlRows<{ plan: string }>(this.em, `select distinct plan from accounts`);
    return rows.map((r) => r.plan);
  }
}
