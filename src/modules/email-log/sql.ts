import { ACTIVITY_TYPES } from '../activity/activity.entity.js';

/**
 * The conditions of one read query, with their parameters in order. The log, activity and
 * analytics reads are plain SQL: they join several tables and pick a few columns of each, which
 * entity loading would do with several round trips and whole rows (message bodies included).
 */
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  get sql(): string {
    return this.parts.length ? this.parts.join(' and ') : 'true';
  }
}

/** A text[] parameter: sent as JSON, so no value (commas, quotes, braces) needs escaping. */
export const TEXT_ARRAY = 'array(select jsonb_array_elements_text(?::jsonb))';

/**
 * Activities recorded together share a timestamp (sent and delivered, opened and opened_unique);
 * the type's place in the life of an email breaks the tie, so the order never depends on ids.
 */
export const LIFECYCLE_RANK = `array_position(array[${ACTIVITY_TYPES.map((t) => `'${t}'`).join(', ')}]::text[], a.type::text)`;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Timestamps come back from raw queries as Date or text, depending on the driver's parsers. */
export const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
export const asDateOrNull = (v: unknown): Date | null => (v == null ? null : asDate(v));
