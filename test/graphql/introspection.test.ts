import { getIntrospectionQuery } from 'graphql';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { loginOk, userWith } from '../auth/helpers.js';

/**
 * What GraphQL tells a stranger about the schema: introspection needs a credential unless
 * GRAPHQL_INTROSPECTION=public (the default is `authenticated`; the former `true` means that too),
 * and no error says "Did you mean ...?" outside development (NODE_ENV=development), on /graphql
 * and /graphql/stream alike.
 */
const endpoints = ['/graphql', '/graphql/stream'] as const;
const INTROSPECT = '{ __schema { queryType { name } } }';
const UNAUTHENTICATED = [{ message: 'Unauthenticated.', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function post(server: TestServer, endpoint: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(endpoints)('introspection on %s (GRAPHQL_INTROSPECTION defaults to authenticated)', (endpoint) => {
  it('is refused 401 without a credential, however the document hides it', async () => {
    for (const query of [INTROSPECT, '{ __type(name: "Query") { name } }', '{ ...I } fragment I on Query { __schema { queryType { name } } }', getIntrospectionQuery()]) {
      const res = await post(s, endpoint, { query });
      expect([query, res.status, res.body.errors]).toEqual([query, 401, UNAUTHENTICATED]);
      expect(res.body.data ?? null).toBeNull();
    }
    // __typename names only the type asked about: no credential needed.
    const typename = await post(s, endpoint, { query: '{ __typename }' });
    expect([typename.status, typename.body]).toEqual([200, { data: { __typename: 'Query' } }]);
  });

  it('is answered to an account token and to the operator', async () => {
    for (const token of [ADMIN_TOKEN, OPERATOR_TOKEN]) {
      const res = await post(s, endpoint, { query: getIntrospectionQuery() }, bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    }
  });
});

it('is answered to a console session', async () => {
  const user = await userWith(s, { role: 'admin' });
  const session = await loginOk(s, user.email, user.password);
  const res = await post(s, '/graphql', { query: INTROSPECT }, { cookie: session.cookie, 'x-csrf-token': session.csrf });
  expect([res.status, res.body]).toEqual([200, { data: { __schema: { queryType: { name: 'Query' } } } }]);
});

it('is refused 401 to an anonymous GET /graphql too', async () => {
  const res = await fetch(`${s.url}/graphql?query=${encodeURIComponent(INTROSPECT)}`, { headers: { 'apollo-require-preflight': 'true' } });
  expect(res.status).toBe(401);
  expect((await res.json()).errors).toEqual(UNAUTHENTICATED);
});

describe.each(endpoints)('suggestions on %s outside development (NODE_ENV=test)', (endpoint) => {
  it('a misspelt field is refused without naming the field it resembles', async () => {
    const res = await post(s, endpoint, { query: '{ whoam { account_id } }' }, bearer(ADMIN_TOKEN));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^Cannot query field "whoam" on type "Query"\.?$/);
    expect(res.text).not.toMatch(/Did you mean|"whoami"/);
  });

  it('a variable with a misspelt input field names no other (an error execution raises, not validation)', async () => {
    const send = await post(
      s,
      endpoint,
      {
        query: 'mutation($from: EmailAddressInput) { send_email(from: $from, to: [{ email: "r@example.net" }], subject: "S", text: "t") { message_id } }',
        variables: { from: { email: 'a@example.net', nmae: 'A' } },
      },
      bearer(ADMIN_TOKEN),
    );
    expect(send.status).toBe(400);
    expect(send.body.errors[0].message).toMatch(/Field "nmae" is not defined by type "EmailAddressInput"\.$/);
    expect(send.text).not.toMatch(/Did you mean|"name"/);
  });
});

describe('NODE_ENV=development and GRAPHQL_INTROSPECTION=public', () => {
  let dev: TestServer;
  beforeAll(async () => {
    dev = await startTestServer({ roles: ['api'], env: { NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'public' } });
  });
  afterAll(async () => {
    await dev?.close();
  });

  it.each(endpoints)('%s suggests field names, and answers introspection to anyone', async (endpoint) => {
    const typo = await post(dev, endpoint, { query: '{ whoam { account_id } }' }, bearer(ADMIN_TOKEN));
    expect(typo.body.errors[0].message).toBe('Cannot query field "whoam" on type "Query". Did you mean "whoami"?');
    const anonymous = await post(dev, endpoint, { query: INTROSPECT });
    expect([anonymous.status, anonymous.body]).toEqual([200, { data: { __schema: { queryType: { name: 'Query' } } } }]);
  });
});

describe('GRAPHQL_INTROSPECTION=true, as set before it took a level', () => {
  let old: TestServer;
  beforeAll(async () => {
    old = await startTestServer({ roles: ['api'], env: { GRAPHQL_INTROSPECTION: 'true' } });
  });
  afterAll(async () => {
    await old?.close();
  });

  it('means authenticated: a token gets the schema, a stranger 401', async () => {
    expect((await post(old, '/graphql', { query: INTROSPECT }, bearer(ADMIN_TOKEN))).status).toBe(200);
    const anonymous = await post(old, '/graphql', { query: INTROSPECT });
    expect([anonymous.status, anonymous.body.errors]).toEqual([401, UNAUTHENTICATED]);
  });
});
