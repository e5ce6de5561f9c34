import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';

/**
 * /graphql answers its common case on the prepared path (src/http/graphql-prepared.ts) and
 * everything else through Apollo. A request with an `extensions` member always goes to Apollo, so
 * each case here is sent both ways and the two answers must be the same: status, content type,
 * body, and the rate-limit headers' presence. What changes between two runs (ids, secrets, times)
 * is blanked first.
 */
let s: TestServer;
let other: { id: string; token: string };
let theirDomain: { id: string };
let readOnly: string;

beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
  other = await createAccount(s);
  theirDomain = await seedDomain(s, { token: other.token });
  readOnly = await tokenWith(s, ['domains_read']);
});
afterAll(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  type: string | null;
  limited: boolean;
  remaining: number;
  body: unknown;
}

async function post(body: Record<string, unknown>, token: string): Promise<Answer> {
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const blanked = text
    .replace(/"(id|accessToken|created_at|updated_at|name)":"[^"]*"/g, '"$1":"…"')
    .replace(/"token_id":"[^"]*"/g, '"token_id":"…"');
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    limited: res.headers.has('x-ratelimit-limit') && res.headers.has('x-apiquota-remaining'),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    body: JSON.parse(blanked),
  };
}

/**
 * The same request on the prepared path, twice (graphql's execute runs a document's first use,
 * graphql-jit's compiled function the next), and through Apollo.
 */
async function bothWays(query: string, variables?: Record<string, unknown>, token = ADMIN_TOKEN, operationName?: string) {
  const firstUse = await post({ query, variables, operationName }, token);
  const compiled = await post({ query, variables, operationName }, token);
  const apollo = await post({ query, variables, operationName, extensions: {} }, token);
  // A subscription sent here is refused while its request is being metered (ratelimit.ts), so
  // whether that answer carries the rate-limit headers is a race on either path: not compared.
  const subscription = query.startsWith('subscription');
  const shown = ({ remaining: _, limited, ...answer }: Answer) => (subscription ? answer : { ...answer, limited });
  expect(shown(firstUse)).toEqual(shown(apollo));
  expect(shown(compiled)).toEqual(shown(apollo));
  return compiled;
}

const cases: [string, () => [string, Record<string, unknown>?, string?, string?]][] = [
  ['a list', () => ['{ tokens { id name status scopes } }']],
  ['a read by a variable', () => ['query($id: ID!) { domain(domain_id: $id) { id name } }', { id: theirDomain.id }]],
  ['another account\'s domain (404)', () => [`{ domain(domain_id: "${theirDomain.id}") { id } }`]],
  ['a scope the token lacks (403)', () => ['{ tokens { id } }', undefined, readOnly]],
  ['a mutation refused by validation (422)', () => ['mutation { create_token(name: "", scopes: ["nope"]) { id } }']],
  ['a mutation that runs', () => ['mutation { create_token(name: "twin", scopes: ["domains_read"]) { id name accessToken } }']],
  ['a variable of the wrong type (400)', () => ['query($n: Int) { tokens(limit: $n) { id } }', { n: 'many' }]],
  ['an unknown field (400)', () => ['{ tokens { id nope } }']],
  ['a document that does not parse (400)', () => ['{ tokens { id ']],
  ['the operation named among two', () => ['query A { whoami { scopes } } query B { tokens { id } }', undefined, ADMIN_TOKEN, 'B']],
  ['two operations and no name (400)', () => ['query A { whoami { scopes } } query B { tokens { id } }']],
  ['a subscription (400)', () => ['subscription { token_events { action } }']],
  ['no credential (401)', () => ['{ tokens { id } }', undefined, '']],
  ['introspection without a credential (401)', () => ['{ __schema { queryType { name } } }', undefined, '']],
];

test.each(cases)('%s answers the same on both paths', async (_what, args) => {
  const [query, variables, token, operationName] = args();
  const answer = await bothWays(query, variables, token, operationName);
  // Metered on either path when a token asks (a subscription's headers are a race, above).
  if (!query.startsWith('subscription')) expect(answer.limited).toBe(token !== '');
});

test('a document longer than the prepared path keeps is answered through Apollo, the same', async () => {
  const query = `{ whoami { scopes } } # ${'x'.repeat(20_000)}`;
  const answer = await bothWays(query);
  expect(answer.status).toBe(200);
});

test('each root field counts one request against the rate limit, as through Apollo', async () => {
  const one = await post({ query: '{ whoami { scopes } }' }, other.token);
  const two = await post({ query: '{ whoami { scopes } tokens { id } }' }, other.token);
  const viaApollo = await post({ query: '{ whoami { scopes } tokens { id } }', extensions: {} }, other.token);
  expect(one.remaining - two.remaining).toBe(2);
  expect(two.remaining - viaApollo.remaining).toBe(2);
});

test('a document sent again is answered from its prepared form, and another variable changes the answer', async () => {
  const query = 'query($id: ID!) { domain(domain_id: $id) { id } }';
  const mine = await seedDomain(s);
  const first = await post({ query, variables: { id: mine.id } }, ADMIN_TOKEN);
  const again = await post({ query, variables: { id: mine.id } }, ADMIN_TOKEN);
  const theirs = await post({ query, variables: { id: theirDomain.id } }, ADMIN_TOKEN);
  expect([first.status, again.status, theirs.status]).toEqual([200, 200, 404]);
  expect(again.body).toEqual(first.body);
});
