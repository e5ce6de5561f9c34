import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import type { Pool, PoolClient } from 'pg';

/**
 * The one way repositories speak SQL: a statement's text with `$1..$n` parameters, sent apart
 * from the text (nothing is quoted into it), on the entity manager's transaction when it has one,
 * else on the ORM's pool. A hot statement carries a `name`: outside a transaction it runs as a
 * named prepared statement, parsed and planned once per pooled connection. The rows come back
 * plain, with no entity hydration or identity map. Entities are still written and read through
 * the ORM (em.create, em.find); these are the statements the ORM cannot say in one round trip.
 *
 * A `name` must always go with the same text (node-postgres refuses a name reused for other SQL).
 */
export interface Statement {
  text: string;
  name?: string;
}

interface Result<T> {
  rows: T[];
  count: number;
}

/**
 * A transaction on one pooled connection of its own (inPooledTransaction). The ORM's transactions
 * send every statement unnamed, so a hot transaction whose statements should stay prepared runs
 * here instead.
 */
export class PooledTransaction {
  constructor(readonly client: PoolClient) {}
}

/** Where a statement runs: an entity manager (its transaction, or the pool), or a pooled transaction. */
export type SqlRunner = EntityManager | PooledTransaction;

async function run<T>(on: SqlRunner, statement: string | Statement, values: readonly unknown[]): Promise<Result<T>> {
  const { text, name } = typeof statement === 'string' ? { text: statement, name: undefined } : statement;
  if (on instanceof PooledTransaction) {
    const result = await on.client.query<T & object>({ name, text, values: [...values] });
    return { rows: result.rows, count: result.rowCount ?? result.rows.length };
  }
  // MikroORM 7's SQL drivers run on Kysely: an open transaction's context is a Kysely transaction.
  const trx = on.getTransactionContext<Transaction<unknown>>();
  if (trx) {
    const result = await trx.executeQuery<T>(CompiledQuery.raw(text, [...values]));
    return { rows: result.rows, count: Number(result.numAffectedRows ?? result.rows.length) };
  }
  const pool = (await on.getConnection().getNativeClient()) as Pool;
  const result = await pool.query<T & object>({ name, text, values: [...values] });
  return { rows: result.rows, count: result.rowCount ?? result.rows.length };
}

/**
 * Runs `work` in one transaction on one connection of `pool`, committed, or rolled back when it
 * throws. `begin` opens it and may set what the transaction needs in the same round trip
 * (`begin; set local ...`). A connection that cannot even roll back, whose transaction may still
 * be open, is not handed out again.
 */
export async function inClientTransaction<T>(pool: Pool, begin: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  // A checked-out client has no listener of the pool's: a connection ended while no statement
  // runs (a database restart between two statements) would be an unhandled 'error' that ends the
  // process. It is noted here instead; the next statement fails, and the client is not reused
  // (bench:faults restarts PostgreSQL under load).
  const lost = (): void => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    if (!broken) {
      broken = await client.query('rollback').then(
        () => false,
        () => true,
      );
    }
    throw err;
  } finally {
    // A lost client keeps the listener until it is destroyed: its socket may still report.
    if (!broken) client.removeListener('error', lost);
    client.release(broken);
  }
}

/** inClientTransaction on the ORM's pool, for a repository's statements (PooledTransaction). */
export async function inPooledTransaction<T>(em: EntityManager, begin: string, work: (tx: PooledTransaction) => Promise<T>): Promise<T> {
  const pool = (await em.getConnection().getNativeClient()) as Pool;
  return inClientTransaction(pool, begin, (client) => work(new PooledTransaction(client)));
}

/** The rows a statement returns. */
export async function sqlRows<T>(on: SqlRunner, statement: string | Statement, values: readonly unknown[] = []): Promise<T[]> {
  return (await run<T>(on, statement, values)).rows;
}

/** The first row a statement returns, or null. */
export async function sqlRow<T>(on: SqlRunner, statement: string | Statement, values: readonly unknown[] = []): Promise<T | null> {
  return (await run<T>(on, statement, values)).rows[0] ?? null;
}

/** How many rows a statement wrote (updated, deleted or inserted). */
export async function sqlCount(on: SqlRunner, statement: string | Statement, values: readonly unknown[] = []): Promise<number> {
  return (await run<unknown>(on, statement, values)).count;
}

/*
 * Helpers for the plain SQL of repositories. The log, activity and analytics reads are plain SQL:
 * they join several tables and pick a few columns of each, which entity loading would do with
 * several round trips and whole rows (message bodies included).
 */

/**
 * The conditions of one read query, with their parameters in order. A condition is written with
 * `?` for each of its parameters, numbered `$n` as it is added; `param` numbers one more for the
 * rest of the statement (its limit, its cursor).
 */
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    let given = 0;
    const numbered = sql.replace(/\?(?![|&])/g, () => `$${this.params.length + ++given}`);
    if (given !== params.length) throw new Error(`a condition with ${given} parameter marks was given ${params.length} values`);
    this.parts.push(numbered);
    this.params.push(...params);
    return this;
  }

  /** Adds one more parameter, after the conditions', and answers its `$n` for the statement's text. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  get sql(): string {
    return this.parts.length ? this.parts.join(' and ') : 'true';
  }
}

/** What JSON.stringify writes otherwise than as itself, `\"` or `\\`: control characters and lone surrogates. */
const NOT_LITERAL_IN_JSON = /[\u0000-\u001f\p{Cs}]/u;

/** Each element in double quotes with its `"` and `\` escaped, the array literal's own rule; a null is NULL. */
function quotedElements(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}

/**
 * A text[] parameter (`col = any(?::text[])`, `unnest($1::text[])`), as one array literal. The
 * ORM inlines parameters and would spread a JS array into a comma list, which `any()` cannot take
 * and which breaks on an empty list; a literal is one value whatever it holds. A null element is
 * NULL; the string "null" stays a string (test/platform/text-array.test.ts).
 *
 * JSON escapes a string's `"` and `\` as the array literal does, so a JSON array of strings in
 * braces is that literal, written by JSON.stringify at native speed (the webhook engine writes a
 * round's rows this way). A string JSON would write another escape for (a control character, a
 * lone surrogate) sends the whole list through the quoting of each element instead.
 */
export function textArray(values: readonly (string | null)[]): string {
  for (const v of values) if (v !== null && NOT_LITERAL_IN_JSON.test(v)) return quotedElements(values);
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}

/** One text[] parameter (textArray) per named string field of `rows`, in the order named. */
export function textColumns<T, K extends keyof T>(rows: readonly T[], keys: readonly K[]): string[] {
  return keys.map((k) => textArray(rows.map((r) => r[k] as T[K] & (string | null))));
}

/** An int[] parameter of numbers (null for none), written as textArray writes its JSON-safe lists. */
export const intArray = (values: Array<number | null>): string => `{${JSON.stringify(values).slice(1, -1)}}`;

/**
 * Strings that hold no line feed (ids, types, times, and bodies: JSON.stringify writes none),
 * one text parameter that the statement splits: `string_to_array($n, chr(10))`. PostgreSQL splits
 * it on one byte, where an array literal is parsed character by character for quotes and
 * escapes, and a body needs no escaping either side (in an array literal each of its `"` is two bytes).
 */
export function lines(values: readonly string[]): string {
  const joined = values.join('\n');
  // Only ever true for a bug: a value split in two would shift every later row's columns. Counted
  // with indexOf, not match(/\n/g), which made a string per line feed.
  let feeds = 0;
  for (let at = joined.indexOf('\n'); at !== -1; at = joined.indexOf('\n', at + 1)) feeds++;
  if (joined.length && feeds !== values.length - 1) throw new Error('a line parameter holds a line feed');
  return joined;
}

/** The SQL of such a parameter, as a text[] (an empty list is an empty array). */
export const split = (param: string): string => `string_to_array(${param}, chr(10))`;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Timestamps come back from raw queries as Date or text, depending on the driver's parsers. */
export const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
export const asDateOrNull = (v: unknown): Date | null => (v == null ? null : asDate(v));
