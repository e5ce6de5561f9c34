import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { SCOPES } from '../../src/core/scopes.js';
import { assignNumberTo } from '../support/sms.js';
import { inviteLink, submitForm, tokenOf, uniqueEmail } from '../users/helpers.js';
import { auditEvents, historyOf, type AuditRow } from './support.js';

/** Every audited change, made through /v1 and GraphQL, leaves one row with its actor and time. */
let s: TestServer;
let r: Receiver;
let accountId: string;
let actor: { id: string; name: string; token: string };

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  r = await startReceiver();
  r.secretFor('*', s.app.services.config.WEBHOOK_TEST_SECRET);
  accountId = await accountIdOf(s);
  // A token of its own makes the changes, so the actor is told apart from the admin token. It holds
  // every scope, as the admin role it grants needs (test/users/grant-matrix.test.ts).
  const token = await tokenWith(s, [...SCOPES]);
  const me = await s.gql('query { whoami { token_id } }', {}, token);
  const id = me.body.data.whoami.token_id;
  actor = { id, token, name: (await s.rest('GET', `/token/${id}`)).body.data.name };
});
afterAll(async () => {
  await r?.close();
  await s?.close();
});

const byActor = () => ({ type: 'token', id: actor.id, name: actor.name });

/** The row was written during the request that made the change. */
function expectStamped(rows: AuditRow[], startedAt: number) {
  for (const row of rows) {
    expect(row.created_at).toMatch(ISO);
    const at = Date.parse(row.created_at);
    expect(at).toBeGreaterThanOrEqual(startedAt - 5);
    expect(at).toBeLessThanOrEqual(Date.now() + 5);
    // A token's change carries the client's address; the invitee accepts through a plain form route.
    expect(row.ip).toBe(row.actor.type === 'token' ? '127.0.0.1' : null);
  }
}

describe('tokens', () => {
  it('records create, rename, pause, unpause and delete; no secret is kept', async () => {
    const started = Date.now();
    const made = await s.rest('POST', '/token', { token: actor.token, body: { name: 'ci deploy', scopes: ['email_full'] } });
    expect(made.status).toBe(200);
    const id = made.body.data.id;
    expect((await s.rest('PUT', `/token/${id}`, { token: actor.token, body: { name: 'ci deploy 2' } })).status).toBe(200);
    expect((await s.rest('PUT', `/token/${id}/settings`, { token: actor.token, body: { status: 'pause' } })).status).toBe(200);
    // Pausing a paused token changes nothing, so nothing is recorded.
    expect((await s.rest('PUT', `/token/${id}`, { token: actor.token, body: { status: 'pause' } })).status).toBe(200);
    const unpaused = await s.gql(`mutation($id: ID!) { update_token(token_id: $id, status: "unpause") { status } }`, { id }, actor.token);
    expect(unpaused.body.data.update_token.status).toBe('unpause');
    expect((await s.rest('DELETE', `/token/${id}`, { token: actor.token })).status).toBe(204);

    const rows = await historyOf(s, id);
    expect(rows.map((e) => e.action)).toEqual(['token.created', 'token.updated', 'token.paused', 'token.unpaused', 'token.deleted']);
    for (const row of rows) expect(row).toMatchObject({ actor: byActor(), subject_type: 'token', subject_id: id });
    expectStamped(rows, started);
    expect(rows[0].changes).toEqual({ name: { to: 'ci deploy' }, scopes: { to: ['email_full'] }, domain_id: { to: null } });
    expect(rows[1].changes).toEqual({ name: { from: 'ci deploy', to: 'ci deploy 2' } });
    expect(rows[2].changes).toEqual({ status: { from: 'unpause', to: 'pause' } });
    expect(rows[3].changes).toEqual({ status: { from: 'pause', to: 'unpause' } });
    expect(rows[4].changes).toEqual({ name: { from: 'ci deploy 2' } });
    expect(JSON.stringify(rows)).not.toContain(made.body.data.accessToken);
    expect(JSON.stringify(rows)).not.toMatch(/mlsn\./);
  });

  it('records nothing for a refused change', async () => {
    const made = await s.rest('POST', '/token', { token: actor.token, body: { name: 'kept', scopes: ['email_full'] } });
    const id = made.body.data.id;
    const before = (await auditEvents(s)).length;
    expect((await s.rest('PUT', `/token/${id}`, { token: actor.token, body: { name: ' ' } })).status).toBe(422);
    expect((await s.rest('PUT', `/token/${id}`, { token: actor.token, body: { status: 'sleep' } })).status).toBe(422);
    expect((await s.rest('POST', '/token', { token: actor.token, body: { name: 'x', scopes: ['nope'] } })).status).toBe(422);
    expect((await s.rest('POST', '/token', { token: actor.token, body: { name: '', scopes: ['email_full'] } })).status).toBe(422);
    expect((await auditEvents(s)).length).toBe(before);
    expect((await historyOf(s, id)).map((e) => e.action)).toEqual(['token.created']);
  });
});

describe('SMTP users', () => {
  it('records create, update and delete without the password', async () => {
    const domain = await seedDomain(s, { accountId });
    const started = Date.now();
    const made = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { token: actor.token, body: { name: 'relay' } });
    expect(made.status).toBe(201);
    const { id, password, username } = made.body.data;
    const bad = await s.rest('PUT', `/domains/${domain.id}/smtp-users/${id}`, { token: actor.token, body: { name: ' ' } });
    expect(bad.status).toBe(422);
    expect((await s.rest('PUT', `/domains/${domain.id}/smtp-users/${id}`, { token: actor.token, body: { enabled: false } })).status).toBe(200);
    expect((await s.rest('DELETE', `/domains/${domain.id}/smtp-users/${id}`, { token: actor.token })).status).toBe(204);

    const rows = await historyOf(s, id);
    expect(rows.map((e) => e.action)).toEqual(['smtp_user.created', 'smtp_user.updated', 'smtp_user.deleted']);
    for (const row of rows) expect(row).toMatchObject({ actor: byActor(), subject_type: 'smtp_user' });
    expectStamped(rows, started);
    expect(rows[0].changes).toEqual({ name: { to: 'relay' }, enabled: { to: true }, domain_id: { to: domain.id } });
    expect(rows[1].changes).toEqual({ enabled: { from: true, to: false } });
    expect(rows[2].changes).toEqual({ name: { from: 'relay' }, username: { from: username } });
    expect(JSON.stringify(rows)).not.toContain(password);
    expect(JSON.stringify(rows)).not.toMatch(/password|scrypt/);
  });
});

describe('email webhooks', () => {
  it('records create, update and delete; URLs by name only, never the secret', async () => {
    const domain = await seedDomain(s, { accountId });
    const started = Date.now();
    const made = await s.rest('POST', '/webhooks', {
      token: actor.token,
      body: { url: r.url('/audit-a'), name: 'hook', events: ['activity.sent'], domain_id: domain.id, enabled: true },
    });
    expect(made.status).toBe(201);
    const { id, secret } = made.body.data;
    const renamed = await s.gql(
      `mutation($id: ID!) { update_webhook(webhook_id: $id, name: "hook 2", url: "${r.url('/audit-b')}") { name } }`,
      { id },
      actor.token,
    );
    expect(renamed.body.errors).toBeUndefined();
    expect((await s.rest('DELETE', `/webhooks/${id}`, { token: actor.token })).status).toBe(204);

    const rows = await historyOf(s, id);
    expect(rows.map((e) => e.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.deleted']);
    for (const row of rows) expect(row).toMatchObject({ actor: byActor(), subject_type: 'webhook' });
    expectStamped(rows, started);
    expect(rows[0].changes).toEqual({
      name: { to: 'hook' },
      url: {},
      events: { to: ['activity.sent'] },
      enabled: { to: true },
      domain_id: { to: domain.id },
    });
    expect(rows[1].changes).toEqual({ url: {}, name: { from: 'hook', to: 'hook 2' } });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(r.base);
  });

  it('records nothing when the test request refuses the URL', async () => {
    const domain = await seedDomain(s, { accountId });
    r.respond('/audit-refused', { status: 500 });
    const before = (await auditEvents(s, { action: 'webhook.created' })).length;
    const res = await s.rest('POST', '/webhooks', {
      token: actor.token,
      body: { url: r.url('/audit-refused'), name: 'no', events: ['activity.sent'], domain_id: domain.id },
    });
    expect(res.status).toBe(422);
    expect((await auditEvents(s, { action: 'webhook.created' })).length).toBe(before);
  });
});

describe('rolled-back changes', () => {
  it('a create whose insert the unique index refuses leaves no row', async () => {
    const domain = await seedDomain(s, { accountId });
    // Both requests pass the duplicate check while their test requests wait; the second insert
    // then fails at commit, taking its audit row with it.
    r.respond('/audit-race', { delayMs: 300 });
    const body = { url: r.url('/audit-race'), name: 'race', events: ['activity.sent'], domain_id: domain.id };
    const before = (await auditEvents(s, { action: 'webhook.created' })).length;
    const answers = await Promise.all([1, 2].map(() => s.rest('POST', '/webhooks', { token: actor.token, body })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    // Both got as far as their test request, so the refusal came from the index at commit.
    expect(r.received('/audit-race')).toHaveLength(2);
    const after = await auditEvents(s, { action: 'webhook.created' });
    expect(after.length).toBe(before + 1);
    expect(after[0].subject_id).toBe(answers.find((a) => a.status === 201)!.body.data.id);
  });
});

describe('SMS webhooks', () => {
  it('records create, update and delete', async () => {
    const number = await assignNumberTo(s, accountId);
    const started = Date.now();
    const made = await s.rest('POST', '/sms-webhooks', {
      token: actor.token,
      body: { url: r.url('/audit-sms'), name: 'sms hook', events: ['sms.sent'], sms_number_id: number.id },
    });
    expect(made.status).toBe(201);
    const { id, secret } = made.body.data;
    expect((await s.rest('PUT', `/sms-webhooks/${id}`, { token: actor.token, body: { events: ['sms.sent', 'sms.failed'] } })).status).toBe(200);
    expect((await s.rest('PUT', `/sms-webhooks/${id}`, { token: actor.token, body: { name: '' } })).status).toBe(422);
    expect((await s.rest('DELETE', `/sms-webhooks/${id}`, { token: actor.token })).status).toBe(204);

    const rows = await historyOf(s, id);
    expect(rows.map((e) => e.action)).toEqual(['sms_webhook.created', 'sms_webhook.updated', 'sms_webhook.deleted']);
    for (const row of rows) expect(row).toMatchObject({ actor: byActor(), subject_type: 'sms_webhook' });
    expectStamped(rows, started);
    expect(rows[0].changes).toMatchObject({ name: { to: 'sms hook' }, sms_number_id: { to: number.id } });
    expect(rows[1].changes).toEqual({ events: { from: ['sms.sent'], to: ['sms.sent', 'sms.failed'] } });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });
});

describe('users', () => {
  it('records the invite, its acceptance by the invitee, role changes and removal', async () => {
    const email = uniqueEmail('audit');
    const started = Date.now();
    const invited = await s.rest('POST', '/users', { token: actor.token, body: { email, role: 'designer' } });
    expect(invited.status).toBe(200);
    const link = await inviteLink(s, email);
    expect((await submitForm(s, { token: tokenOf(link), name: 'Ada', last_name: 'L' })).status).toBe(200);
    const user = (await s.rest('GET', '/users?limit=100')).body.data.find((u: { email: string }) => u.email === email);
    // A refused update (unknown domain) records nothing.
    expect((await s.rest('PUT', `/users/${user.id}`, { token: actor.token, body: { role: 'manager', domains: ['nope'] } })).status).toBe(422);
    expect((await s.rest('PUT', `/users/${user.id}`, { token: actor.token, body: { role: 'manager' } })).status).toBe(200);
    expect((await s.rest('DELETE', `/users/${user.id}`, { token: actor.token })).status).toBe(204);

    const [invite] = await historyOf(s, invited.body.data.id);
    expect(invite).toMatchObject({ action: 'user.invited', actor: byActor(), subject_type: 'invite' });
    expect(invite.changes).toMatchObject({ email: { to: email }, role: { to: 'designer' } });
    const rows = await historyOf(s, user.id);
    expect(rows.map((e) => e.action)).toEqual(['user.invite_accepted', 'user.updated', 'user.deleted']);
    expect(rows[0]).toMatchObject({ actor: { type: 'invitee', id: user.id, name: email }, subject_type: 'user' });
    expect(rows[0].changes).toEqual({ invite_id: { to: invited.body.data.id }, email: { to: email }, role: { to: 'designer' } });
    expect(rows[1]).toMatchObject({ actor: byActor(), changes: { role: { from: 'designer', to: 'manager' } } });
    expect(Object.keys(rows[1].changes)).toContain('permissions');
    expect(rows[2]).toMatchObject({ actor: byActor(), changes: { email: { from: email }, role: { from: 'manager' } } });
    expectStamped([invite, ...rows], started);
  });

  it('records nothing when the last-admin check refuses inside the transaction', async () => {
    const email = uniqueEmail('admin');
    await s.rest('POST', '/users', { token: actor.token, body: { email, role: 'admin' } });
    await submitForm(s, { token: tokenOf(await inviteLink(s, email)), name: 'A', last_name: 'B' });
    const admins = (await s.rest('GET', '/users?limit=100')).body.data.filter((u: { role: string }) => u.role === 'admin');
    expect(admins).toHaveLength(1);
    expect((await s.rest('DELETE', `/users/${admins[0].id}`, { token: actor.token })).status).toBe(422);
    expect((await s.rest('PUT', `/users/${admins[0].id}`, { token: actor.token, body: { role: 'designer' } })).status).toBe(422);
    expect((await historyOf(s, admins[0].id)).map((e) => e.action)).toEqual(['user.invite_accepted']);
  });
});
