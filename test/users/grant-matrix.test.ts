import { seedDomain } from '../support/factories.js';
import { startTestServer, tokenWith, type HttpAnswer, type TestServer } from '../support/server.js';
import { DataWatch, changedTables } from '../support/sweep-check.js';
import { settle } from '../support/tenant-fixture.js';
import { loginOk, send, userWith, type Session } from '../auth/helpers.js';
import { uniqueEmail } from './helpers.js';

/**
 * The grant matrix: members and tokens of one account, each with one kind of limit, try every way
 * of giving someone (themselves included) more than they hold, on /v1 and GraphQL. Each attempt
 * is refused (403; a send's foreign template 422 on template_id) and leaves every table as it was
 * (md5 of every row, test/support/sweep-check.ts). The cases that a limited caller may do are in
 * test/users/grants.test.ts, with the positive controls.
 */
type Kind = 'lesserUser' | 'templateUser' | 'domainUser' | 'lesserToken' | 'domainToken';
interface Caller {
  kind: Kind;
  session?: Session;
  token?: string;
  /** The member behind a session. */
  userId?: string;
}

let s: TestServer;
let watch: DataWatch;
const callers = {} as Record<Kind, Caller>;
let ids: { admin: string; designerOnD1: string; t2: string; from: string };

beforeAll(async () => {
  s = await startTestServer();
  const d1 = await seedDomain(s);
  const t1 = (await s.rest('POST', '/templates', { body: { name: 'one', html: '<p>1</p>', text: '1' } })).body.data.id;
  const t2 = (await s.rest('POST', '/templates', { body: { name: 'two', html: '<p>2</p>', text: '2' } })).body.data.id;
  const admin = await userWith(s, { role: 'admin' });
  const designer = await userWith(s, { role: 'designer', domains: [d1.id] });
  ids = { admin: admin.id, designerOnD1: designer.id, t2, from: `m@${d1.name}` };
  const member = async (kind: Kind, access: Record<string, unknown>) => {
    const u = await userWith(s, access);
    callers[kind] = { kind, userId: u.id, session: await loginOk(s, u.email, u.password) };
  };
  const users = ['manage-account', 'manage-api-token'];
  await member('lesserUser', { role: 'Custom User', permissions: [...users, 'read-analytics'] });
  await member('templateUser', { role: 'Custom User', permissions: [...users, 'manage-template', 'control-sendings'], templates: [t1] });
  await member('domainUser', { role: 'Custom User', permissions: [...users, 'control-sendings'], domains: [d1.id] });
  callers.lesserToken = { kind: 'lesserToken', token: await tokenWith(s, ['users_full', 'tokens_full', 'analytics_read']) };
  // Every scope, within d1: it may grant anything within d1, and nothing beyond it.
  const everyFull = ['email_full', 'domains_full', 'activity_full', 'analytics_full', 'tokens_full', 'webhooks_full', 'templates_full', 'users_full'];
  callers.domainToken = { kind: 'domainToken', token: await tokenWith(s, everyFull, d1.id) };
  watch = new DataWatch(s.dbUrl, { user_sessions: ['last_seen_at'] });
  await watch.start();
  await settle(() => watch.checksum());
}, 120_000);
afterAll(async () => {
  await watch?.close();
  await s?.close();
});

/** A /v1 request as the caller. */
function rest(c: Caller, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  if (c.session) return send(s, method, `/v1${path}`, { session: c.session, body });
  return s.rest(method, path, { token: c.token, body });
}

/** A GraphQL request as the caller: its answer's status is the error's (200 without one). */
async function gql(c: Caller, query: string, variables: Record<string, unknown>): Promise<HttpAnswer> {
  const res = c.session ? await send(s, 'POST', '/graphql', { session: c.session, body: { query, variables } }) : await s.gql(query, variables, c.token);
  const error = res.body.errors?.[0];
  return { ...res, status: error ? (error.extensions?.http?.status ?? 400) : 200 };
}

interface Attempt {
  name: string;
  /** The callers it applies to (those that have the route at all, or something to gain). */
  by: Kind[];
  status: number;
  v1: (c: Caller) => Promise<HttpAnswer>;
  graphql: (c: Caller) => Promise<HttpAnswer>;
}

const SESSIONS: Kind[] = ['lesserUser', 'templateUser', 'domainUser'];
const NOT_EVERY_SCOPE: Kind[] = [...SESSIONS, 'lesserToken'];
const updateUser = 'mutation($id: ID!, $role: String!, $p: [String!]) { update_user(user_id: $id, role: $role, permissions: $p) { id } }';

const ATTEMPTS: Attempt[] = [
  {
    name: 'invites an admin',
    by: NOT_EVERY_SCOPE,
    status: 403,
    v1: (c) => rest(c, 'POST', '/users', { email: uniqueEmail('m'), role: 'admin' }),
    graphql: (c) => gql(c, 'mutation($e: String!) { invite_user(email: $e, role: "admin") { id } }', { e: uniqueEmail('m') }),
  },
  {
    name: 'invites a member with a permission it lacks',
    by: NOT_EVERY_SCOPE,
    status: 403,
    v1: (c) => rest(c, 'POST', '/users', { email: uniqueEmail('m'), role: 'Custom User', permissions: ['manage-webhook'] }),
    graphql: (c) => gql(c, 'mutation($e: String!) { invite_user(email: $e, role: "Custom User", permissions: ["manage-webhook"]) { id } }', { e: uniqueEmail('m') }),
  },
  {
    name: 'makes itself admin',
    by: SESSIONS,
    status: 403,
    v1: (c) => rest(c, 'PUT', `/users/${c.userId}`, { role: 'admin' }),
    graphql: (c) => gql(c, updateUser, { id: c.userId, role: 'admin' }),
  },
  {
    name: 'adds a permission to itself',
    by: SESSIONS,
    status: 403,
    v1: (c) => rest(c, 'PUT', `/users/${c.userId}`, { role: 'Custom User', permissions: ['manage-account', 'manage-api-token', 'manage-webhook'] }),
    graphql: (c) => gql(c, updateUser, { id: c.userId, role: 'Custom User', p: ['manage-account', 'manage-api-token', 'manage-webhook'] }),
  },
  {
    name: 'raises another member to admin',
    by: NOT_EVERY_SCOPE,
    status: 403,
    v1: (c) => rest(c, 'PUT', `/users/${ids.designerOnD1}`, { role: 'admin' }),
    graphql: (c) => gql(c, updateUser, { id: ids.designerOnD1, role: 'admin' }),
  },
  {
    name: 'demotes the admin',
    by: NOT_EVERY_SCOPE,
    status: 403,
    v1: (c) => rest(c, 'PUT', `/users/${ids.admin}`, { role: 'designer' }),
    graphql: (c) => gql(c, updateUser, { id: ids.admin, role: 'designer' }),
  },
  {
    name: 'removes the admin',
    by: [...NOT_EVERY_SCOPE, 'domainToken'],
    status: 403,
    v1: (c) => rest(c, 'DELETE', `/users/${ids.admin}`),
    graphql: (c) => gql(c, 'mutation($id: ID!) { delete_user(user_id: $id) }', { id: ids.admin }),
  },
  {
    name: 'makes a token with a scope it lacks',
    by: NOT_EVERY_SCOPE,
    status: 403,
    v1: (c) => rest(c, 'POST', '/token', { name: 'wider', scopes: ['webhooks_full'] }),
    graphql: (c) => gql(c, 'mutation { create_token(name: "wider", scopes: ["webhooks_full"]) { accessToken } }', {}),
  },
  {
    name: 'makes a token that reaches every template',
    by: ['templateUser'],
    status: 403,
    v1: (c) => rest(c, 'POST', '/token', { name: 'wider', scopes: ['email_full'] }),
    graphql: (c) => gql(c, 'mutation { create_token(name: "wider", scopes: ["templates_full"]) { accessToken } }', {}),
  },
  {
    name: 'sends with a template it may not use',
    by: ['templateUser'],
    status: 422,
    v1: (c) => rest(c, 'POST', '/email', { from: { email: ids.from }, to: [{ email: 'r@example.net' }], subject: 'x', template_id: ids.t2 }),
    graphql: (c) =>
      gql(c, 'mutation($f: String!, $t: String) { send_email(from: {email: $f}, to: [{email: "r@example.net"}], subject: "x", template_id: $t) { message_id } }', {
        f: ids.from,
        t: ids.t2,
      }),
  },
];

const CASES = ATTEMPTS.flatMap((a) => a.by.flatMap((kind) => (['v1', 'graphql'] as const).map((surface) => [a.name, kind, surface, a] as const)));

describe('no caller grants more than it holds', () => {
  it.each(CASES)('%s: %s on %s', async (_name, kind, surface, attempt) => {
    const before = await watch.checksum();
    const res = await attempt[surface](callers[kind]);
    expect({ status: res.status, body: res.body }).toEqual({ status: attempt.status, body: expect.anything() });
    expect(changedTables(before, await watch.checksum())).toEqual([]);
  });
});
