import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAllowList } from '../../src/graphql/allowlist.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * GRAPHQL_ALLOWLIST (persisted operations) and GRAPHQL_INTROSPECTION=false, on both GraphQL
 * endpoints; /v1 builds its own documents and is not limited by the list.
 */
const WHOAMI = 'query Me { whoami { account_id scopes } }';
const TOKENS = 'query Tokens($limit: Int!) { tokens(limit: $limit) { id name } }';
const INTROSPECT = '{ __schema { queryType { name } } }';
// Listed, so that only the schema check can refuse it: the answer must not suggest `whoami`.
const TYPO = '{ whoamii { account_id } }';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let s: TestServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-allowlist-'));
  const file = path.join(dir, 'operations.json');
  writeFileSync(file, JSON.stringify(Object.fromEntries([WHOAMI, TOKENS, INTROSPECT, TYPO].map((d) => [sha(d), d]))));
  s = await startTestServer({ env: { GRAPHQL_ALLOWLIST: file, GRAPHQL_INTROSPECTION: 'false' } });
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(endpoint: string, body: Record<string, unknown>) {
  const res = await fetch(`${s.url}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

const persisted = (document: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: sha(document) } } });

describe.each(['/graphql', '/graphql/stream'])('the allow-list on %s', (endpoint) => {
  it('runs a listed document sent as text, however it is laid out', async () => {
    const exact = await post(endpoint, { query: WHOAMI });
    expect(exact.status).toBe(200);
    expect(exact.body.data.whoami.scopes.length).toBeGreaterThan(10);
    const relaid = await post(endpoint, { query: '# mine\nquery Me {\n  whoami {\n    account_id,\n    scopes\n  }\n}\n' });
    expect(relaid.status).toBe(200);
    expect(relaid.body.data.whoami.account_id).toBe(exact.body.data.whoami.account_id);
  });

  it('runs a listed document sent by its hash alone, with variables', async () => {
    const res = await post(endpoint, { ...persisted(TOKENS), variables: { limit: 10 } });
    expect(res.status).toBe(200);
    expect(res.body.data.tokens.length).toBeGreaterThan(0);
  });

  it('refuses any other document, and an unknown hash, with a 400', async () => {
    const other = await post(endpoint, { query: '{ whoami { account_id } }' });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([expect.objectContaining({ message: 'This operation is not on the allow-list of persisted operations.' })]);
    expect(other.body.data).toBeUndefined();

    const unknown = await post(endpoint, persisted('{ whoami { account_id } }'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_FOUND' }) })]);
  });

  it('refuses a mutation that is not listed before it runs', async () => {
    const res = await post(endpoint, { query: 'mutation { create_token(name: "not listed", scopes: ["tokens_full"]) { id } }' });
    expect(res.status).toBe(400);
    const tokens = await s.rest('GET', '/token?limit=100');
    expect(tokens.body.data.map((t: { name: string }) => t.name)).not.toContain('not listed');
  });

  it('refuses introspection when GRAPHQL_INTROSPECTION is false, even listed', async () => {
    const res = await post(endpoint, { query: INTROSPECT });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'GraphQL introspection is disabled on this server.' })]);
    expect(res.body.data).toBeUndefined();
  });

  it('does not suggest field names outside development (NODE_ENV=test here)', async () => {
    const res = await post(endpoint, { query: TYPO });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^Cannot query field "whoamii" on type "Query"\.?$/);
    expect(res.text).not.toMatch(/Did you mean|"whoami"/);
  });
});

describe('/v1 with an allow-list', () => {
  it('is not limited by it: sofa builds and executes its own documents', async () => {
    const list = await s.rest('GET', '/token?limit=100');
    expect(list.status).toBe(200);
    const created = await s.rest('POST', '/token', { body: { name: 'through v1', scopes: ['tokens_full'] } });
    expect(created.status).toBe(200);
    expect(created.body.data.name).toBe('through v1');
    const domains = await s.rest('GET', '/domains?limit=10');
    expect(domains.status).toBe(200);
  });
});

describe('the allow-list file', () => {
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it('may be an Apollo persisted query manifest', () => {
    const file = write('manifest.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'me', name: 'Me', type: 'query', body: WHOAMI }],
    });
    const list = loadAllowList(file, 1000);
    expect(list.byId.get('me')).toBe(WHOAMI);
    expect(list.printed.size).toBe(1);
  });

  it('stops the start with the entry named when a document does not parse or is over the token limit', () => {
    expect(() => loadAllowList(write('broken.json', { good: WHOAMI, bad: '{ whoami {' }), 1000)).toThrow(/entry bad does not parse/);
    expect(() => loadAllowList(write('long.json', { long: WHOAMI }), 5)).toThrow(/entry long does not parse: Syntax Error: Document contains more that 5 tokens/);
    expect(() => loadAllowList(write('list.json', [WHOAMI]), 1000)).toThrow(/must hold a JSON object/);
    expect(() => loadAllowList(path.join(dir, 'missing.json'), 1000)).toThrow(/cannot read/);
  });
});
