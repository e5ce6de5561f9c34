import pg from 'pg';
import { getNamedType, type GraphQLSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildAppSchema } from '../../src/graphql/schema.js';
import { routeTable } from '../../rest-mapping/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

/**
 * A bounded bad-input sweep over every /v1 route, generated from the route table and the schema
 * so no route is forgotten: hostile values for every argument, in the body, the query string
 * and the path. Expectations: never a 5xx, every error in the documented shape, and a refused
 * request changes no stored data.
 */
const HOSTILE: unknown[] = [
  null, 123, -1, 1.5, 1e308, true, '', ' ', 'x'.repeat(20_000), '\u0000\ud83d\udca5\uffff', '<script>', [], [null], [{ a: 1 }], {}, { $gt: '' },
];
const QUERY_HOSTILE = ['', '-1', '1e9', '99999999999999999999', 'true', '%00', '%F0%9F%92%A5', 'x'.repeat(3000)];
const PATH_HOSTILE = ['%00', '..%2F..', 'x'.repeat(300), '%F0%9F%92%A5', "'%20or%201=1--"];

let s: TestServer;
let schema: GraphQLSchema;
let db: pg.Client;
beforeAll(async () => {
  // No worker: a request the sweep gets accepted (a bulk send) must not change data in the background.
  s = await startTestServer({ roles: ['api'] });
  schema = await buildAppSchema(createPubSub() as never);
  await seedDomain(s);
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await s?.close();
});

const TABLES = ['accounts', 'api_tokens', 'domains', 'sender_identities', 'smtp_users', 'account_users', 'invites', 'recipients', 'domain_events'];
async function checksum(): Promise<string> {
  const parts = await Promise.all(
    TABLES.map(async (t) => (await db.query(`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${t} x`)).rows[0].h),
  );
  return parts.join(',');
}

function argsOf(key: string) {
  const [op, name] = key.split('.');
  const root = op === 'Query' ? schema.getQueryType() : schema.getMutationType();
  return root!.getFields()[name].args;
}

async function probe(method: string, path: string, body?: unknown, rawQuery = '') {
  const before = await checksum();
  const res = await s.rest(method, `${path}${rawQuery}`, body === undefined ? {} : { body });
  const where = `${method} ${path}${rawQuery} ${JSON.stringify(body)?.slice(0, 200)}`;
  expect([where, res.status < 500]).toEqual([where, true]);
  if (res.status >= 400) {
    if (res.status !== 204) expect([where, typeof res.body?.message]).toEqual([where, 'string']);
    if (res.status === 422) {
      for (const v of Object.values(res.body.errors as Record<string, unknown>)) {
        expect([where, Array.isArray(v) && v.every((m) => typeof m === 'string')]).toEqual([where, true]);
      }
    }
    expect([where, await checksum()]).toEqual([where, before]);
  }
  return res.status;
}

describe('bad-input sweep', () => {
  const routes = Object.entries(routeTable);

  it.each(routes)('%s: hostile body and query values', async (key, spec) => {
    const params = [...spec.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
    const path = spec.path.replace(/:([a-z_]+)/g, 'unknownid');
    const args = argsOf(key).filter((a) => !params.includes(a.name));
    for (const arg of args) {
      if (spec.method === 'GET' || spec.method === 'DELETE') {
        for (const v of QUERY_HOSTILE) await probe(spec.method, path, undefined, `?${arg.name}=${v}`);
        await probe(spec.method, path, undefined, `?${arg.name}[]=1&${arg.name}[a]=2`);
      }
      if (spec.method !== 'GET') {
        for (const v of HOSTILE) await probe(spec.method, path, { [arg.name]: v });
      }
      // Nested input objects get hostile fields too.
      const named = getNamedType(arg.type) as { getFields?: () => Record<string, unknown> };
      if (spec.method !== 'GET' && named.getFields) {
        for (const field of Object.keys(named.getFields())) {
          for (const v of HOSTILE.slice(0, 8)) await probe(spec.method, path, { [arg.name]: { [field]: v } });
        }
      }
    }
  });

  it.each(routes)('%s: hostile path parameters', async (_key, spec) => {
    if (!spec.path.includes(':')) return;
    for (const v of PATH_HOSTILE) await probe(spec.method, spec.path.replace(/:([a-z_]+)/g, v));
  });
});

describe('NUL characters', () => {
  it('are a 422 on GraphQL too, naming the field', async () => {
    const res = await s.gql('mutation($n: String!) { create_token(name: $n, scopes: ["email_full"]) { id } }', { n: 'a\u0000b' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.errors).toEqual({ name: ['The name contains an invalid character.'] });
  });
});
