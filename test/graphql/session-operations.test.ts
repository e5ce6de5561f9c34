import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_DIST } from '../../src/http/console.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { loginOk, send, userWith, type Session } from '../auth/helpers.js';

/**
 * The console's operations by id (console/dist/persisted-documents.json, made by its build), and
 * SESSION_OPERATIONS=console: a console session runs only those, by id or as the same text, on
 * /graphql and /graphql/stream; anything else it sends is a 400. API tokens are not held to it.
 */
const manifest = JSON.parse(readFileSync(path.join(CONSOLE_DIST, 'persisted-documents.json'), 'utf8')) as Record<string, string>;
const entries = Object.entries(manifest);
/** A console query without variables, and the console's live subscription. */
const [queryKey, queryText] = entries.find(([, doc]) => doc.startsWith('query') && !doc.includes('$'))!;
/** codegen names the ids `sha256:<hex>`; APQ sends the hex. */
const queryId = queryKey.replace(/^sha256:/, '');
const [, subscriptionText] = entries.find(([, doc]) => doc.startsWith('subscription'))!;
const REFUSED = "Console sessions may run only the console's own operations on this server (SESSION_OPERATIONS).";

let s: TestServer;
let session: Session;

beforeAll(async () => {
  s = await startTestServer({ env: { SESSION_OPERATIONS: 'console' } });
  const admin = await userWith(s, { role: 'admin' });
  session = await loginOk(s, admin.email, admin.password);
});
afterAll(async () => {
  await s?.close();
});

const asSession = (body: Record<string, unknown>) => send(s, 'POST', '/graphql', { session, body });
const byId = (id: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: id } } });

test('a session runs a console operation by its id, answered as the same text is', async () => {
  const viaId = await asSession(byId(queryId));
  const viaText = await asSession({ query: queryText });
  expect(viaId.text).not.toContain(REFUSED);
  expect([viaId.status, viaId.body]).toEqual([viaText.status, viaText.body]);
  // Sent again: the prepared path answers it the same.
  const again = await asSession(byId(queryId));
  expect([again.status, again.body]).toEqual([viaId.status, viaId.body]);
});

test('a session is refused any other document, on the prepared path and through Apollo alike', async () => {
  for (const body of [{ query: '{ whoami { account_id } }' }, { query: '{ whoami { account_id } }', extensions: {} }]) {
    const res = await asSession(body);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe(REFUSED);
  }
});

test('an unknown id is not found, for a session as for a token', async () => {
  const res = await asSession(byId('0'.repeat(64)));
  expect(res.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
});

test('an API token is not held to the console\'s operations', async () => {
  const res = await s.gql('{ whoami { account_id } }', {}, ADMIN_TOKEN);
  expect(res.status).toBe(200);
  expect(res.body.data.whoami.account_id).toBeTruthy();
});

/** A stream as the session, read to its end (a refused subscription ends at once). */
async function streamAsSession(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${s.url}/graphql/stream`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  return res.text();
}

test('on /graphql/stream a session may open the console\'s subscription, and no other', async () => {
  expect(await streamAsSession({ query: 'subscription { token_events { action } }' })).toContain(REFUSED);
  // The console's own subscription passes the rule, then answers what its arguments call for (no such domain).
  const variables = Object.fromEntries([...subscriptionText.matchAll(/\$(\w+)/g)].map(([, name]) => [name, 'nope']));
  const own = await streamAsSession({ query: subscriptionText, variables });
  expect(own).not.toContain(REFUSED);
  expect(own).toContain('NOT_FOUND');
});
