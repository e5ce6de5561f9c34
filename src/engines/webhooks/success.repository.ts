import { sortableId } from '../../lib/ids.js';
import { intArray, lines, split, textArray } from '../../db/sql.js';

/*
 * Successful attempts as both delivered statements take them (dispatch.repository.ts for claimed
 * deliveries, lease.repository.ts for fresh ones): the same six array parameters, the same
 * recordset over them, and the same log rows. Kept together: the parameters' order and the
 * recordset's columns must match.
 */

/**
 * Successful attempts gathered column by column, as the delivered statements take them: one push
 * per column and attempt, where a row object per attempt was made, then read back six times.
 */
export class SuccessColumns {
  /** The attempts' log ids, made here. */
  readonly ids: string[] = [];
  readonly deliveryIds: string[] = [];
  readonly attemptedAt: string[] = [];
  readonly statuses: Array<number | null> = [];
  readonly durations: number[] = [];
  readonly excerpts: Array<string | null> = [];

  get size(): number {
    return this.ids.length;
  }

  /** Adds one attempt, with a new log id unless given one. */
  add(deliveryId: string, attemptedAt: string, status: number | null, durationMs: number, excerpt: string | null, id = sortableId()): void {
    this.ids.push(id);
    this.deliveryIds.push(deliveryId);
    this.attemptedAt.push(attemptedAt);
    this.statuses.push(status);
    this.durations.push(durationMs);
    this.excerpts.push(excerpt);
  }

  /** Those of the attempts whose delivery `keep` accepts, with the same log ids. */
  pick(keep: (deliveryId: string) => boolean): SuccessColumns {
    const out = new SuccessColumns();
    this.deliveryIds.forEach((d, i) => {
      if (keep(d)) out.add(d, this.attemptedAt[i], this.statuses[i], this.durations[i], this.excerpts[i], this.ids[i]);
    });
    return out;
  }
}

/** `$1`–`$6` of a delivered statement: id, delivery, time, status, duration, excerpt. */
export function successArrays(rows: SuccessColumns): Array<string | Array<string | null>> {
  return [
    lines(rows.ids),
    lines(rows.deliveryIds),
    lines(rows.attemptedAt),
    intArray(rows.statuses),
    intArray(rows.durations),
    // Receivers' text, which may hold anything (control characters included): textArray
    // quotes it whatever it holds.
    textArray(rows.excerpts),
  ];
}

/** Those parameters as rows `x`, the first CTE of a delivered statement. */
export const SUCCESS_ROWS = `x as (
     select * from unnest(${split('$1')}, ${split('$2')}, ${split('$3')}::timestamptz[], $4::int[], $5::int[], $6::text[])
       as x(id, delivery_id, attempted_at, status, duration_ms, response_excerpt)
   )`;

/*
 * The end of a delivered statement: the attempts of `x` not logged (their delivery is gone: its
 * webhook was deleted; or, for a fresh one, its lease ran out meanwhile). Almost always none, so
 * the statement sends back no row rather than one per attempt written.
 */
export const UNWRITTEN = 'select x.delivery_id from x where not exists (select 1 from a where a.delivery_id = x.delivery_id)';

/** The log rows of `x`, joined to the deliveries written as `written` (id, webhook_id, type); returns their delivery ids. */
export const logSuccesses = (written: string) => `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
     select x.id, ${written}.webhook_id, ${written}.id, ${written}.type, x.attempted_at, true, x.status, x.duration_ms, x.response_excerpt, null
       from x join ${written} on ${written}.id = x.delivery_id
     returning delivery_id`;
