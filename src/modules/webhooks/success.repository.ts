import { intArray, lines, split, textArray } from './pg-arrays.js';
import type { DeliveredRow } from './webhook.repository.js';

/*
 * Successful attempts as both delivered statements take them (engine.repository.ts for claimed
 * deliveries, lease.repository.ts for fresh ones): the same six array parameters, the same
 * recordset over them, and the same log rows. Kept together: the parameters' order and the
 * recordset's columns must match.
 */

/** `$1`–`$6` of a delivered statement: id, delivery, time, status, duration, excerpt. */
export function successArrays(rows: DeliveredRow[]): Array<string | Array<string | null>> {
  return [
    lines(rows.map((r) => r.id)),
    lines(rows.map((r) => r.delivery_id)),
    lines(rows.map((r) => r.attempted_at)),
    intArray(rows.map((r) => r.status)),
    intArray(rows.map((r) => r.duration_ms)),
    // Receivers' text, which may hold anything: an array literal when it can be written as JSON
    // (an `ok`, a JSON answer), else pg escapes it.
    textArray(rows.map((r) => r.response_excerpt)),
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
