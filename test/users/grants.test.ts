import { seedDomain } from '../support/factories.js';
import { startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { until } from '../sending/helpers.js';
import { gqlAs, loginOk, send, userWith, type Session } from '../auth/helpers.js';
import { uniqueEmail } from './helpers.js';

/**
 * A caller grants only what it holds: the access of the people it invites or changes (itself
 * included), the tokens it makes, and the templates it sends with are within its own permissions,
 * domains and templates; and it changes or removes only people whose access its own covers.
 * Each refusal is a 403 (a send's foreign template a 422 on template_id, as for a template of
 * another domain) and stores nothing.
 */
let s: TestServer;
let from: string;
let t1: string;
let t2: string;
beforeAll(async () => {
  s = await startTestServer();
  const domain = await seedDomain(s);
  from = `grants@${domain.name}`;
  t1 = (await s.rest('POST', '/templates', { body: { name: 'one', html: '<p>one {{name}}</p>', text: 'one' } })).body.data.id;
  t2 = (await s.rest('POST', '/templates', { body: { name: 'two', html: '<p>secret two</p>', text: 'secret two' } })).body.data.id;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function member(access: Record<string, unknown>): Promise<{ id: string; session: Session }> {
  const u = await userWith(s, access);
  return { id: u.id, session: await loginOk(s, u.email, u.password) };
}

const userRow = async (id: string) => (await s.rest('GET', `/users/${id}`)).body.data;
const inviteCount = async () => (await s.rest('GET', '/invites?limit=100')).body.meta.total as number;
const tokenCount = async () => (await s.rest('GET', '/token?limit=100')).body.meta.total as number;

describe('a member with manage-account', () => {
  let self: { id: string; session: Session };
  beforeAll(async () => {
    self = await member({ role: 'Custom User', permissions: ['manage-account', 'read-analytics'] });
  });

  it('cannot make itself admin, on /v1 or GraphQL, and stays what it was', async () => {
    const rest = await send(s, 'PUT', `/v1/users/${self.id}`, { session: self.session, body: { role: 'admin' } });
    expect(rest.status).toBe(403);
    expect(rest.body.message).toMatch(/do not hold/);
    const gql = await gqlAs(s, self.session, 'mutation($id: ID!) { update_user(user_id: $id, role: "admin") { role } }', { id: self.id });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const wider = await send(s, 'PUT', `/v1/users/${self.id}`, {
      session: self.session,
      body: { role: 'Custom User', permissions: ['manage-account', 'read-analytics', 'manage-api-token'] },
    });
    expect(wider.status).toBe(403);
    expect((await userRow(self.id)).role).toBe('Custom User');
    expect((await send(s, 'GET', '/v1/token', { session: self.session })).status).toBe(403);
  });

  it('may narrow its own access', async () => {
    const narrowed = await member({ role: 'Custom User', permissions: ['manage-account', 'read-analytics'] });
    const res = await send(s, 'PUT', `/v1/users/${narrowed.id}`, { session: narrowed.session, body: { role: 'Custom User', permissions: ['manage-account'] } });
    expect(res.status).toBe(200);
    expect((await userRow(narrowed.id)).permissions).toEqual(['manage-account']);
  });

  it('cannot raise another member, nor invite anyone above itself', async () => {
    const designer = await userWith(s, { role: 'designer' });
    const raised = await send(s, 'PUT', `/v1/users/${designer.id}`, { session: self.session, body: { role: 'admin' } });
    expect(raised.status).toBe(403);
    expect((await userRow(designer.id)).role).toBe('designer');

    const before = await inviteCount();
    for (const access of [{ role: 'admin' }, { role: 'manager' }, { role: 'Custom User', permissions: ['manage-api-token'] }]) {
      const res = await send(s, 'POST', '/v1/users', { session: self.session, body: { email: uniqueEmail('up'), ...access } });
      expect(res.status).toBe(403);
    }
    expect(await inviteCount()).toBe(before);
    // What it holds, it may grant.
    const ok = await send(s, 'POST', '/v1/users', { session: self.session, body: { email: uniqueEmail('ok'), role: 'Custom User', permissions: ['read-analytics'] } });
    expect(ok.status).toBe(200);
    expect(await inviteCount()).toBe(before + 1);
  });

  it('cannot change or remove a member whose access is wider, nor their invitation', async () => {
    const admin = await userWith(s, { role: 'admin' });
    expect((await send(s, 'PUT', `/v1/users/${admin.id}`, { session: self.session, body: { role: 'designer' } })).status).toBe(403);
    expect((await send(s, 'DELETE', `/v1/users/${admin.id}`, { session: self.session })).status).toBe(403);
    expect((await userRow(admin.id)).role).toBe('admin');

    const email = uniqueEmail('wide');
    const invite = (await s.rest('POST', '/users', { body: { email, role: 'manager' } })).body.data;
    expect((await send(s, 'DELETE', `/v1/invites/${invite.id}`, { session: self.session })).status).toBe(403);
    expect((await send(s, 'POST', `/v1/invites/${invite.id}/resend`, { session: self.session })).status).toBe(403);
    expect((await s.rest('GET', `/invites/${invite.id}`)).status).toBe(200);
  });

  it('cannot lift the periodic password change laid on itself', async () => {
    const ruled = await member({ role: 'Custom User', permissions: ['manage-account'], requires_periodic_password_change: true });
    const res = await send(s, 'PUT', `/v1/users/${ruled.id}`, {
      session: ruled.session,
      body: { role: 'Custom User', permissions: ['manage-account'], requires_periodic_password_change: false },
    });
    expect(res.status).toBe(403);
    const stored = await s.app.services.orm.em.fork().getConnection().execute('select requires_periodic_password_change as rule from account_users where id = ?', [ruled.id]);
    expect(stored[0].rule).toBe(true);
  });
});

describe('a token with users_full', () => {
  it('grants the permissions of the scopes it holds, and no role beyond them', async () => {
    const token = await tokenWith(s, ['users_full', 'analytics_read']);
    const before = await inviteCount();
    const admin = await s.rest('POST', '/users', { token, body: { email: uniqueEmail('t'), role: 'admin' } });
    expect(admin.status).toBe(403);
    const sms = await s.rest('POST', '/users', { token, body: { email: uniqueEmail('t'), role: 'Custom User', permissions: ['manage-sms'] } });
    expect(sms.status).toBe(403);
    expect(await inviteCount()).toBe(before);
    // accountant is read-analytics and billing, whose permissions no token scope covers: this token has them all.
    expect((await s.rest('POST', '/users', { token, body: { email: uniqueEmail('t'), role: 'accountant' } })).status).toBe(200);
    const analytics = await s.rest('POST', '/users', { token, body: { email: uniqueEmail('t'), role: 'Custom User', permissions: ['read-analytics'] } });
    expect(analytics.status).toBe(200);
    // The admin token holds every scope: the admin role is its to grant.
    expect((await s.rest('POST', '/users', { body: { email: uniqueEmail('t'), role: 'admin' } })).status).toBe(200);
  });
});

describe('a member limited to one template', () => {
  let limited: { id: string; session: Session };
  beforeAll(async () => {
    limited = await member({
      role: 'Custom User',
      permissions: ['manage-template', 'manage-api-token', 'control-sendings', 'read-email', 'manage-account'],
      templates: [t1],
    });
  });

  it('mints no token that reaches every template', async () => {
    const before = await tokenCount();
    for (const scopes of [['templates_full'], ['email_full'], ['domains_read', 'email_full']]) {
      const res = await send(s, 'POST', '/v1/token', { session: limited.session, body: { name: 'wide', scopes } });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/limited to some templates/);
    }
    const gql = await gqlAs(s, limited.session, 'mutation { create_token(name: "wide", scopes: ["templates_full"]) { accessToken } }');
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await tokenCount()).toBe(before);
    const narrow = await send(s, 'POST', '/v1/token', { session: limited.session, body: { name: 'narrow', scopes: ['domains_read'] } });
    expect(narrow.status).toBe(200);
  });

  it('sends with its own template only, on /v1, GraphQL and in bulk', async () => {
    const email = (template_id: string) => ({ from: { email: from }, to: [{ email: 'reader@example.net' }], subject: 'hi', template_id });
    const foreign = await send(s, 'POST', '/v1/email', { session: limited.session, body: email(t2) });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['template_id']);
    const gql = await gqlAs(s, limited.session, 'mutation($t: String) { send_email(from: {email: "' + from + '"}, to: [{email: "r@example.net"}], subject: "x", template_id: $t) { message_id } }', { t: t2 });
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(gql.body.errors[0].extensions.errors ?? gql.body.errors[0].extensions.fields ?? {})).toEqual(['template_id']);
    expect((await send(s, 'POST', '/v1/email', { session: limited.session, body: email(t1) })).status).toBe(202);

    const bulk = await send(s, 'POST', '/v1/bulk-email', { session: limited.session, body: [email(t2), email(t1)] });
    expect(bulk.status).toBe(202);
    const done = await until(async () => {
      const res = await send(s, 'GET', `/v1/bulk-email/${bulk.body.bulk_email_id}`, { session: limited.session });
      return res.body.data?.state === 'completed' ? res.body.data : null;
    }, 20_000, 'the bulk send to complete');
    expect(Object.keys(done.validation_errors)).toEqual(['message.0.template_id']);
    expect(done.messages_id).toHaveLength(1);
  });

  it('grants only its own templates to the people it invites', async () => {
    const outside = await send(s, 'POST', '/v1/users', {
      session: limited.session,
      body: { email: uniqueEmail('tpl'), role: 'Custom User', permissions: ['manage-template'], templates: [t2] },
    });
    expect(outside.status).toBe(403);
    const email = uniqueEmail('tpl');
    const unnamed = await send(s, 'POST', '/v1/users', { session: limited.session, body: { email, role: 'Custom User', permissions: ['manage-template'] } });
    expect(unnamed.status).toBe(200);
    const stored = await s.app.services.orm.em.fork().getConnection().execute('select template_ids from invites where email = ?', [email]);
    expect(stored[0].template_ids).toEqual([t1]);
  });
});
