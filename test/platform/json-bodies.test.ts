import { seedDomain } from '../support/factories.js';
import { postFromThread, slowestHealthDuring, slowestHealthOfRepeatable } from '../support/loop-watch.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * JSON request bodies from a caller with a valid token (src/http/json-body.ts): a body over
 * 256 KB is parsed in a worker thread, and every body is refused before it is built when it holds
 * a list of more than 20,000 items, nests more than 64 deep, or holds more than 100,000 values
 * (src/lib/json-shape.ts). Bodies are built before the event loop is watched and sent from a
 * thread of their own: this process runs the server too, so building or writing 40 MB here would
 * hold the loop being watched.
 */
const MB = 1024 * 1024;
/** /health answers within this while a body is refused; parsing the bodies below on the loop takes seconds. */
const HELD_MS = 1000;

let s: TestServer;
let from: string;
beforeAll(async () => {
  // No worker: what is accepted stays queued, nothing is delivered.
  s = await startTestServer({ roles: ['api'] });
  from = `hello@${(await seedDomain(s)).name}`;
});
afterAll(async () => {
  await s?.close();
});

const HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' };

/** A built body (megabytes) is sent from a thread of its own (postFromThread); a string from here. */
async function post(path: string, body: Uint8Array<ArrayBuffer> | string) {
  const { status, text } =
    typeof body === 'string'
      ? await fetch(`${s.url}${path}`, { method: 'POST', headers: HEADERS, body }).then(async (res) => ({ status: res.status, text: await res.text() }))
      : await postFromThread(`${s.url}${path}`, HEADERS, body);
  return { status, body: text ? JSON.parse(text) : null };
}

/** `count` copies of a JSON value, comma-separated: the inside of an array. */
const items = (item: string, count: number) => `${item},`.repeat(count - 1) + item;
/** As many copies of `item` as fill `bytes` inside an array, with room for the rest of a body. */
const fill = (item: string, bytes: number) => items(item, Math.floor((bytes - 4096) / (item.length + 1)));
/** `inner` nested inside `levels` arrays. */
const nested = (levels: number, inner = '0') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

const sendJson = (extra: string) => `{"from":{"email":"${from}"},"subject":"S","text":"t",${extra}}`;
const VERIFY_LIST = 'mutation($e: [String!]!) { create_email_verification_list(name: "G", emails: $e) { id } }';
const invalid = (field: string, message: string) => ({ message: 'The given data was invalid.', errors: { [field]: [message] } });
/** The GraphQL error shape of a refusal on /graphql, from the error catalogue. */
const gqlRefusal = (message: string, code: string, status: number, fields?: Record<string, string[]>) => ({
  errors: [{ message, extensions: { code, http: { status }, ...(fields ? { errors: fields } : {}) } }],
});

describe('a 40 MB body of tiny values', () => {
  it('is refused on /v1/email at its first list past 20,000 items, while /health answers', async () => {
    const body = Buffer.from(sendJson(`"to":[${fill('{}', 40 * MB)}]`));
    const { result: res, slowestMs } = await slowestHealthOfRepeatable(s.url, () => post('/v1/email', body), HELD_MS);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('to', 'The to may not have more than 20000 items.'));
    expect(slowestMs).toBeLessThan(HELD_MS);
  });

  it('is refused on /graphql, naming the variable, before any item is coerced, while /health answers', async () => {
    const body = Buffer.from(`{"query":${JSON.stringify(VERIFY_LIST)},"variables":{"e":[${fill('{}', 40 * MB)}]}}`);
    const { result: res, slowestMs } = await slowestHealthOfRepeatable(s.url, () => post('/graphql', body), HELD_MS);
    expect(res.status).toBe(422);
    const message = 'The variables.e may not have more than 20000 items.';
    expect(res.body).toEqual(gqlRefusal('The given data was invalid.', 'VALIDATION_FAILED', 422, { 'variables.e': [message] }));
    expect(slowestMs).toBeLessThan(HELD_MS);
    expect((await s.rest('GET', '/email-verification')).body.data).toEqual([]);
  });

  it('is refused with 413 past 100,000 values when no list is too long, on /graphql and /v1', async () => {
    const lists = fill(`[${items('{}', 10_000)}]`, 40 * MB);
    const gql = Buffer.from(`{"query":"{ whoami { account_id } }","variables":{"pad":[${lists}]}}`);
    const { result: res, slowestMs } = await slowestHealthOfRepeatable(s.url, () => post('/graphql', gql), HELD_MS);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(gqlRefusal('The request body holds more than 100000 values.', 'PAYLOAD_TOO_LARGE', 413));
    expect(slowestMs).toBeLessThan(HELD_MS);
    // The same limit on /v1, in a body of 1 MB.
    const rest = await post('/v1/email', sendJson(`"to":[{"email":"r@example.net"}],"pad":[${items(`[${items('0', 10_000)}]`, 11)}]`));
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ message: 'The request body holds more than 100000 values.' });
  });

  it('of a list as the body itself is refused under its own name', async () => {
    const res = await post('/v1/bulk-email', `[${items('{}', 20_001)}]`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('body', 'The body may not have more than 20000 items.'));
  });
});

describe('nesting', () => {
  const pad = `"pad":"${'p'.repeat(300 * 1024)}"`;

  it.each([
    ['inline', ''],
    ['in the parser thread', `${pad},`],
  ])('deeper than 64 is refused at the path it goes past the limit, %s', async (_where, padding) => {
    // The body is the first level, `deep` the second.
    const res = await post('/v1/email', sendJson(`${padding}"to":[{"email":"r@example.net"}],"deep":${nested(100)}`));
    expect(res.status).toBe(422);
    const path = `deep${'.0'.repeat(63)}`;
    expect(res.body).toEqual(invalid(path, `The ${path} may not be nested more than 64 levels deep.`));

    const gql = await post('/graphql', `{${padding}"query":"{ whoami { account_id } }","variables":{"d":${nested(100)}}}`);
    const gqlPath = `variables.d${'.0'.repeat(62)}`;
    expect(gql.body).toEqual(
      gqlRefusal('The given data was invalid.', 'VALIDATION_FAILED', 422, { [gqlPath]: [`The ${gqlPath} may not be nested more than 64 levels deep.`] }),
    );
  });

  it('64 deep is read, and the send goes on', async () => {
    const res = await post('/v1/email', sendJson(`"to":[{"email":"r@example.net"}],"deep":${nested(63, '"x"')}`));
    expect(res.status).toBe(202);
  });
});

/** Bodies parsed so far on the event loop and in the parser threads (postbox_json_bodies_parsed_total). */
async function parsedWhere(): Promise<{ loop: number; pool: number }> {
  const text = await scrapeMetrics(s);
  const count = (thread: string) => sampleOf(text, `postbox_json_bodies_parsed_total{thread="${thread}"}`) ?? 0;
  return { loop: count('event_loop'), pool: count('pool') };
}

describe('large legitimate bodies', () => {
  it('a send with a 30 MB attachment (base64) is parsed in a thread and accepted, while /health answers', async () => {
    const content = Buffer.alloc(22.5 * MB, 7).toString('base64');
    const body = Buffer.from(sendJson(`"to":[{"email":"r@example.net"}],"attachments":[{"filename":"big.pdf","content":"${content}"}]`));
    expect(body.length).toBeGreaterThan(30 * MB);
    const before = await parsedWhere();
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, post('/v1/email', body));
    expect(res.status).toBe(202);
    expect(slowestMs).toBeLessThan(HELD_MS);
    expect(await parsedWhere()).toEqual({ loop: before.loop, pool: before.pool + 1 });
  });

  it('a small send is parsed on the event loop, with no thread hop', async () => {
    const before = await parsedWhere();
    expect((await post('/v1/email', sendJson('"to":[{"email":"r@example.net"}]'))).status).toBe(202);
    expect(await parsedWhere()).toEqual({ loop: before.loop + 1, pool: before.pool });
  });

  it('a GraphQL send with a large body is parsed and runs', async () => {
    const query = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $html: String) {
      send_email(from: $from, to: $to, subject: "S", html: $html) { message_id } }`;
    const res = await post('/graphql', JSON.stringify({ query, variables: { from: { email: from }, to: [{ email: 'r@example.net' }], html: `<p>${'h'.repeat(MB)}</p>` } }));
    expect(res.status).toBe(200);
    expect(res.body.data.send_email.message_id).toEqual(expect.any(String));
  });
});

describe('prototype poisoning', () => {
  const poisons = ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '{"a":[{"\\u005f_proto__":{"admin":true}}]}'];
  const large = (poison: string) => `{"pad":"${'p'.repeat(300 * 1024)}","inner":${poison}}`;

  it.each(poisons)('%s is refused as not JSON on /v1 and /graphql, small or large', async (poison) => {
    for (const body of [poison, large(poison)]) {
      const rest = await post('/v1/domains', body);
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({ message: 'The request body is not valid JSON.' });
      const gql = await post('/graphql', body);
      expect(gql.status).toBe(400);
      expect(gql.body).toEqual(gqlRefusal('The request body is not valid JSON.', 'BAD_REQUEST', 400));
    }
  });

  it('malformed JSON keeps its answer, small or large', async () => {
    for (const body of ['{"name": ', `{"pad":"${'p'.repeat(300 * 1024)}",`]) {
      const rest = await post('/v1/domains', body);
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({ message: 'The request body is not valid JSON.' });
    }
  });
});

describe('GraphQL variables in a GET', () => {
  it('are bounded by the URL: a request line past 16 KB is refused before anything reads it', async () => {
    const variables = JSON.stringify({ e: Array(10_000).fill('') });
    const url = `${s.url}/graphql?query=${encodeURIComponent('query($e: [String!]) { whoami { account_id } }')}&variables=${encodeURIComponent(variables)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'apollo-require-preflight': 'true' } });
    expect(res.status).toBe(431);
  });
});
