import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * List variables on both GraphQL endpoints (src/graphql/limits-variables.ts variablesRefusal):
 * graphql-js coerces every item of a list before the argument's own `@MaxItems` runs, so a list
 * longer than its argument allows is refused before execution, with that rule's own answer. The
 * body limits on lists (20,000 items) are in test/platform/json-bodies.test.ts.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
});
afterAll(async () => {
  await s?.close();
});

const endpoints = ['/graphql', '/graphql/stream'] as const;
const VERIFY_LIST = 'mutation($e: [String!]!) { create_email_verification_list(name: "G", emails: $e) { id total } }';

async function post(endpoint: string, body: unknown) {
  const res = await fetch(`${s.url}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe.each(endpoints)('list variables on %s', (endpoint) => {
  it('a verification list of the most addresses one request takes (10,000) is created', async () => {
    // Over 256 KB: the body is read in the parser thread.
    const e = Array.from({ length: 10_000 }, (_, i) => `someone.${String(i).padStart(5, '0')}@example.test`);
    const res = await post(endpoint, { query: VERIFY_LIST, variables: { e } });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.create_email_verification_list.total).toBe(10_000);
  });

  it('a longer list is refused with the argument\'s own rule before any item is coerced', async () => {
    // The last item is no string: coercing the list would end in graphql-js's own 400 about it.
    const e: unknown[] = [...Array.from({ length: 19_999 }, (_, i) => `u${i}@example.test`), 5];
    const res = await post(endpoint, { query: VERIFY_LIST, variables: { e } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'The given data was invalid.',
        extensions: expect.objectContaining({ code: 'VALIDATION_FAILED', errors: { emails: ['The emails may not have more than 10000 items.'] } }),
      }),
    ]);
  });

  it('a list the argument allows but with a bad item still gets graphql-js\'s answer about the item', async () => {
    const res = await post(endpoint, { query: VERIFY_LIST, variables: { e: ['a@example.test', 5] } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^Variable "\$e" got invalid value 5 at "e\[1\]"/);
  });
});
