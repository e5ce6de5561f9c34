import type { EntityManager } from '@mikro-orm/postgresql';
import { assertDomainAccess } from '../../graphql/auth.js';
import type { Auth } from '../../graphql/context.js';
import { errors } from '../../graphql/errors.js';
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

/**
 * The domain a filter or path names, checked like any owned resource: another account's (or a
 * missing) domain is 404, another domain than a domain-limited token's is 403.
 */
export async function ownedDomainId(em: EntityManager, auth: Auth, domainId: string): Promise<string> {
  const rows = await em.execute<{ id: string }[]>('select id from domains where id = ? and account_id = ?', [domainId, auth.accountId]);
  if (!rows.length) throw errors.notFound();
  assertDomainAccess(auth, domainId);
  return domainId;
}

/** The domain a list is limited to: the one asked for, else the token's own, else none. */
export async function domainScope(em: EntityManager, auth: Auth, domainId: string | null | undefined): Promise<string | null> {
  if (domainId) return ownedDomainId(em, auth, domainId);
  return auth.domainId;
}

/** Timestamps come back from raw queries as Date or text, depending on the driver's parsers. */
export const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
export const asDateOrNull = (v: unknown): Date | null => (v == null ? null : asDate(v));
