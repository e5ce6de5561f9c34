import { intArray, textArray } from './pg-arrays.js';
import type { DeliveredRow } from './webhook.repository.js';

/*
 * Successful attempts as both delivered statements take them (engine.repository.ts for claimed
 * deliveries, lease.repository.ts for fresh ones): the same six array parameters, the same
 * recordset over them, and the same log rows. Kept together: the parameters' order and the
 * recordset's columns must match.
 */

/** `$1`–`$6` of a delivered statement: id, delivery, time, status, duration, excerpt. */
export function successArrays(rows: DeliveredRow[]): Array<string | string[] | Array<string | null>> {
  return [
    textArray(rows.map((r) => r.id)),
    textArray(rows.map((r) => r.delivery_id)),
    textArray(rows.map((r) => r.attempted_at)),
    intArray(rows.map((r) => r.status)),
    intArray(rows.map((r) => r.duration_ms)),
    // Receivers' text: pg escapes it (an excerpt may hold anything).
    rows.map((r) => r.response_excerpt),
  ];
}

/** Those parameters as rows `x`, the first CTE of a delivered statement. */
export const SUCCESS_ROWS = `x as (
     select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
       as x(id, delivery_id, attempted_at, status, duration_ms, response_excerpt)
   )`;

/** The log rows of `x`, joined to the deliveries written as `written` (id, webhook_id, type); returns their delivery ids. */
export const logSuccesses = (written: string) => `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
     select x.id, ${written}.webhook_id, ${written}.id, ${written}.type, x.attempted_at, true, x.status, x.duration_ms, x.response_excerpt, null
       from x join ${written} on ${written}.id = x.delivery_id
     returning delivery_id`;
