/**
 * An instant a caller names as a window bound (a webhook replay, the audit log's range): Unix
 * seconds or an ISO 8601 date/time, UTC unless it carries an offset. Looser than lib/moment.ts,
 * which reads the fixed `YYYY-MM-DD HH:MM:SS` of the analytics and activity filters.
 */
const UNIX = /^\d{1,12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseInstant(value: string): Date | null {
  const v = value.trim();
  if (UNIX.test(v)) return new Date(Number(v) * 1000);
  if (!ISO_DATE.test(v)) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(v) && v.length > 10;
  const d = new Date(hasZone || v.length === 10 ? v : `${v.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}
