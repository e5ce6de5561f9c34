/**
 * A moment a caller names in a query or an argument: Unix seconds, or a UTC date and time
 * `YYYY-MM-DD HH:MM:SS`. A route may take more forms (`MomentForms`): a bare `YYYY-MM-DD`
 * (`day` tells the caller so, for inclusive ends) and ISO 8601 (a `T`, minutes without seconds,
 * a fraction, an offset). Only dates and times that exist are taken: 2026-02-30 and 24:00 are
 * refused rather than rolled over (test/platform/moments.test.ts).
 */
export interface Moment {
  at: Date;
  day: boolean;
}

/** The forms a route takes beyond Unix seconds and `YYYY-MM-DD HH:MM:SS`. */
export interface MomentForms {
  /** A bare `YYYY-MM-DD`, which is midnight UTC with `day` set. */
  day?: boolean;
  /** ISO 8601 date-times: `T` or a space, seconds optional, a fraction, `Z` or an offset. */
  iso?: boolean;
}

const UNIX_SECONDS = /^\d{1,12}$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:([T ])(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** The minutes an offset (`Z`, `+02:00`, `-0530`) puts the wall time ahead of UTC; null when it names none that exists. */
function offsetMinutes(zone: string | undefined): number | null {
  if (!zone || zone === 'Z') return 0;
  const [, sign, hours, minutes] = OFFSET.exec(zone)!;
  if (Number(hours) > 23 || Number(minutes) > 59) return null;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** The wall time in UTC, or null when one of its fields names nothing that exists. */
function wallTime(year: number, month: number, date: number, hours: number, minutes: number, seconds: number): Date | null {
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  at.setUTCFullYear(year, month - 1, date);
  at.setUTCHours(hours, minutes, seconds, 0);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date ? at : null;
}

/** Is the written shape one the route takes? Without `iso`, a time is exactly ` HH:MM:SS`. */
function formTaken(forms: MomentForms, [, , , , separator, , , seconds, fraction, zone]: RegExpExecArray): boolean {
  if (separator === undefined) return forms.day === true;
  if (forms.iso) return true;
  return separator === ' ' && seconds !== undefined && fraction === undefined && zone === undefined;
}

export function parseMoment(value: string, forms: MomentForms = {}): Moment | null {
  const text = value.trim();
  if (UNIX_SECONDS.test(text)) return { at: new Date(Number(text) * 1000), day: false };
  const m = DATE_TIME.exec(text);
  if (!m || !formTaken(forms, m)) return null;
  const [, year, month, date, separator, hours, minutes, seconds, fraction, zone] = m;
  const wall = wallTime(Number(year), Number(month), Number(date), Number(hours ?? 0), Number(minutes ?? 0), Number(seconds ?? 0));
  const offset = offsetMinutes(zone);
  if (!wall || offset === null) return null;
  // A fraction past milliseconds is cut, as Date does.
  const millis = fraction ? Number(fraction.slice(1, 4).padEnd(3, '0')) : 0;
  return { at: new Date(wall.getTime() + millis - offset * 60_000), day: separator === undefined };
}
