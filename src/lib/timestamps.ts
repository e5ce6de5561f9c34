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
  return toDate(value).toISOString().slice(0, 19).replace('T', ' ');
}

