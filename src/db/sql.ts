/**
 * Helpers for the plain SQL of repositories. The log, activity and analytics reads are plain SQL:
 * they join several tables and pick a few columns of each, which entity loading would do with
 * several round trips and whole rows (message bodies included).
 */

/** The conditions of one read query, with their parameters in order. */
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

/**
 * A text[] parameter (`col = any(?::text[])`), as an array literal with each element quoted. The
 * ORM inlines parameters and would spread a JS array into a comma list, which `any()` cannot take
 * and which breaks on an empty list; a literal is one value whatever it holds.
 */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Timestamps come back from raw queries as Date or text, depending on the driver's parsers. */
export const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
export const asDateOrNull = (v: unknown): Date | null => (v == null ? null : asDate(v));
