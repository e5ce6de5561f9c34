import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { emailsOf, send } from '../email-log/helpers.js';
import { textArray } from '../../src/db/sql.js';

/**
 * textArray writes every text[] parameter of the repositories, on both ways a statement is sent:
 * the ORM's, which inlines parameters into the SQL text, and the pg pool's, which binds them.
 * Whatever an element holds, PostgreSQL must read back the same list.
 */
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** Elements an array literal treats specially, without characters JSON would escape another way. */
const LITERAL_SPECIALS = ['plain', 'quo"te', '""', 'back\\slash', 'ends with \\', '\\"', 'a,b', '{braces}', '}', '{', 'NULL', 'null', '', ' spaced ', "it's", '?', '$1', 'é😀'];
/** Elements JSON writes with an escape the array literal reads otherwise. */
const CONTROLS = ['line\nfeed', 'tab\there', 'bell\u0007', '\r\n', 'quote " and \t tab'];

/** The list back from PostgreSQL, element by element, through the ORM (inlined parameters). */
async function throughOrm(values: (string | null)[]): Promise<(string | null)[]> {
  const em = s.app.services.orm.em.fork() as EntityManager;
  const rows = await em.execute<{ v: string | null }[]>('select v from unnest(?::text[]) with ordinality as t(v, n) order by n', [textArray(values)]);
  return rows.map((r) => r.v);
}

/** The same through the pg pool the webhook engine uses (bound parameters). */
async function throughPool(values: (string | null)[]): Promise<(string | null)[]> {
  const pool = (await s.app.services.orm.em.getConnection().getNativeClient()) as Pool;
  const { rows } = await pool.query<{ v: string | null }>('select v from unnest($1::text[]) with ordinality as t(v, n) order by n', [textArray(values)]);
  return rows.map((r) => r.v);
}

describe('textArray through a real query', () => {
  const lists: [string, (string | null)[]][] = [
    ['quotes, backslashes, commas, braces, NULL-like and empty strings', LITERAL_SPECIALS],
    ['control characters', CONTROLS],
    ['both together, with nulls', [...LITERAL_SPECIALS, null, ...CONTROLS, null]],
    ['an empty list', []],
  ];

  it.each(lists)('reads back %s unchanged, on the ORM and on the pool', async (_, values) => {
    expect(await throughOrm(values)).toEqual(values);
    expect(await throughPool(values)).toEqual(values);
  });

  it('reads back each element alone unchanged', async () => {
    for (const value of [...LITERAL_SPECIALS, ...CONTROLS]) {
      expect(await throughOrm([value])).toEqual([value]);
      expect(await throughPool([value])).toEqual([value]);
    }
  });

  it('sends a lone surrogate as the replacement character, never as the text of its JSON escape', async () => {
    expect(await throughOrm(['a\ud800b', 'c'])).toEqual(['a\ufffdb', 'c']);
    expect(await throughPool(['a\ud800b', 'c'])).toEqual(['a\ufffdb', 'c']);
  });

  it('keeps a null apart from the strings that spell it', async () => {
    const rows = await (s.app.services.orm.em.fork() as EntityManager).execute<{ v: string | null; is_null: boolean }[]>(
      'select v, v is null as is_null from unnest(?::text[]) with ordinality as t(v, n) order by n',
      [textArray([null, 'null', 'NULL', ''])],
    );
    expect(rows).toEqual([
      { v: null, is_null: true },
      { v: 'null', is_null: false },
      { v: 'NULL', is_null: false },
      { v: '', is_null: false },
    ]);
  });
});

describe('GET /v1/analytics/date filtered by tags', () => {
  it('counts exactly the emails carrying each tag, whatever characters the tag holds', async () => {
    const domain = await seedDomain(s, { dkim: true });
    const tagged: string[][] = [['a,b'], ['a'], ['b'], ['quo"te', 'back\\slash'], ['{braces}', 'NULL'], ['null'], ['tab\there']];
    for (const tags of tagged) await emailsOf(s, await send(s, domain, { tags }));

    const delivered = async (tags: string[]) => {
      const query = tags.map((t) => `tags[]=${encodeURIComponent(t)}`).join('&');
      const res = await s.rest('GET', `/analytics/date?domain_id=${domain.id}&date_from=${Math.floor(Date.now() / 1000) - 3600}&date_to=${Math.floor(Date.now() / 1000)}&event[]=delivered&${query}`);
      expect(res.status).toBe(200);
      return (res.body.data.stats as { delivered: number }[]).reduce((n, day) => n + day.delivered, 0);
    };
    expect(await delivered(['a,b'])).toBe(1);
    expect(await delivered(['a', 'b'])).toBe(2);
    expect(await delivered(['quo"te'])).toBe(1);
    expect(await delivered(['back\\slash'])).toBe(1);
    expect(await delivered(['{braces}'])).toBe(1);
    expect(await delivered(['NULL'])).toBe(1);
    expect(await delivered(['null'])).toBe(1);
    expect(await delivered(['tab\there'])).toBe(1);
    expect(await delivered(['quo"te', '{braces}', 'tab\there'])).toBe(3);
    expect(await delivered(['"', '\\', ','])).toBe(0);
  });
});
