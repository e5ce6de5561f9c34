/** The two timestamp formats of SPEC.md, read from a Date or anything Date can parse. */
export function toDate(value: unknown): Date {
  const d = value instanceof Date ? value : new Date(value as string);
  if (Number.isNaN(d.getTime())) throw new TypeError(`Not a timestamp: ${String(value)}`);
  return d;
}

/** `2026-11-22T17:04:05.123000Z`: ISO 8601 UTC with six fractional digits. */
export function isoTimestamp(value: Date | string): string {
  // toISOString always ends in `.sssZ`: the milliseconds, then three zeros (every list row has one).
  return `${toDate(value).toISOString().slice(0, -1)}000Z`;
}

/** `2026-11-22 17:04:05` in UTC. */
export function plainTimestamp(value: Date | string): string {
  return plainOfIso(toDate(value).toISOString());
}

/** The plain form of an ISO 8601 UTC text (toISOString's or isoTimestamp's): its first 19 characters, a space for the T. */
export const plainOfIso = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `date.toISOString()`, kept for the last millisecond asked: the webhook engine logs tens of
 * thousands of attempts a second, in the order they started, so most share their millisecond.
 */
export function isoOfDate(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = date.toISOString();
  }
  return lastIso;
}
