/**
 * A moment named in a query: a Unix timestamp (seconds) or `YYYY-MM-DD HH:MM:SS`, both UTC, and
 * where the route allows it a bare `YYYY-MM-DD` (`day` tells the caller so, for inclusive ends).
 * Only dates that exist are taken: 2026-02-30 is refused rather than rolled over to March.
 */
export interface Moment {
  at: Date;
  day: boolean;
}

export function parseMoment(value: string): Date | null {
  const m = parseMomentOrDay(value, false);
  return m ? m.at : null;
}

export function parseMomentOrDay(value: string, allowDay = true): Moment | null {
  const s = value.trim();
  if (/^\d{1,11}$/.test(s)) return { at: new Date(Number(s) * 1000), day: false };
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(s);
  if (!m || (!m[4] && !allowDay)) return null;
  const text = `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
  const d = new Date(`${text}Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 19) !== text) return null;
  return { at: d, day: !m[4] };
}
