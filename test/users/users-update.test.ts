import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { USER_KEYS, inviteAndAccept, uniqueEmail } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const invalid = (key: string, message: string) => ({ message: 'The given data was invalid.', errors: { [key]: [message] } });

describe('PUT /v1/users/{id}', () => {
  let user: { id: string };
  beforeAll(async () => {
    user = (await inviteAndAccept(s, { email: uniqueEmail('bad'), role: 'manager' })).user;
  });

  it('changes role, permissions, domains and the password rule', async () => {
    const domain = await seedDomain(s);
    const { user } = await inviteAndAccept(s, { email: uniqueEmail('upd'), role: 'designer' });
    const res = await s.rest('PUT', `/users/${user.id}`, {
      body: { role: 'Custom User', permissions: ['read-email'], domains: [domain.id], requires_periodic_password_change: true },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(USER_KEYS);
    expect(res.body.data).toMatchObject({ id: user.id, role: 'Custom User', permissions: ['read-email'] });
    expect(res.body.data.domains.map((d: any) => d.id)).toEqual([domain.id]);
    expect(res.body.data.updated_at).toMatch(ISO);

    // Back to a preset role: its permissions replace the custom ones; domains stay unless sent.
    const back = await s.rest('PUT', `/users/${user.id}`, { body: { role: 'accountant', permissions: ['read-email'] } });
    expect(back.body.data.permissions).toEqual(['read-invoice', 'read-analytics']);
    expect(back.body.data.domains.map((d: any) => d.id)).toEqual([domain.id]);
    const all = await s.rest('PUT', `/users/${user.id}`, { body: { role: 'accountant', domains: [] } });
    expect(all.body.data.domains).toEqual([]);
  });

  it.each([
    [{}, 'role', 'The role field is required.'],
    [{ role: 'root' }, 'role', 'The selected role is invalid.'],
    [{ role: 'Custom User' }, 'permissions', 'The permissions field is required when role is Custom User.'],
    [{ role: 'Custom User', permissions: ['x'] }, 'permissions.0', 'The selected permissions.0 is invalid.'],
    [{ role: 'manager', domains: ['nope'] }, 'domains.0', 'The selected domains.0 is invalid.'],
    [{ role: 'manager', templates: ['t1', 't2'] }, 'templates.0', 'The selected templates.0 is invalid.'],
  ])('422 for %j', async (body, key, message) => {
    const res = await s.rest('PUT', `/users/${user.id}`, { body });
    expect(res.status).toBe(422);
    if (key === 'templates.0') expect(res.body.errors).toEqual({ 'templates.0': [message], 'templates.1': ['The selected templates.1 is invalid.'] });
    else expect(res.body).toEqual(invalid(key, message));
  });

  it('404 for an unknown id', async () => {
    const res = await s.rest('PUT', '/users/nope', { body: { role: 'manager' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('DELETE /v1/users/{id} and the last admin', () => {
  it('keeps at least one admin, and otherwise answers an empty 204', async () => {
    // A fresh account, so its admins are exactly the ones made here.
    const acct = await createAccount(s, 'Admins');
    const { user: first } = await inviteAndAccept(s, { email: uniqueEmail('adm1'), role: 'admin' }, acct.token);
    expect(first.role).toBe('admin');

    const refused = await s.rest('DELETE', `/users/${first.id}`, { token: acct.token });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(invalid('user_id', 'The account must keep at least one admin.'));
    const demote = await s.rest('PUT', `/users/${first.id}`, { token: acct.token, body: { role: 'manager' } });
    expect(demote.status).toBe(422);
    expect(demote.body).toEqual(invalid('role', 'The account must keep at least one admin.'));

    const { user: second } = await inviteAndAccept(s, { email: uniqueEmail('adm2'), role: 'admin' }, acct.token);
    const gone = await s.rest('DELETE', `/users/${first.id}`, { token: acct.token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await s.rest('GET', `/users/${first.id}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/users/${first.id}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/users/${second.id}`, { token: acct.token })).status).toBe(422);
  });

  it('two admins removed at once leave one behind', async () => {
    const acct = await createAccount(s, 'Race');
    const a = (await inviteAndAccept(s, { email: uniqueEmail('ra'), role: 'admin' }, acct.token)).user;
    const b = (await inviteAndAccept(s, { email: uniqueEmail('rb'), role: 'admin' }, acct.token)).user;
    const results = await Promise.all([a, b].map((u) => s.rest('DELETE', `/users/${u.id}`, { token: acct.token })));
    expect(results.map((r) => r.status).sort()).toEqual([204, 422]);
    const left = (await s.rest('GET', '/users', { token: acct.token })).body.data.filter((u: any) => u.role === 'admin');
    expect(left).toHaveLength(1);
  });

  it('a non-admin can be removed freely', async () => {
    const { user } = await inviteAndAccept(s, { email: uniqueEmail('del'), role: 'designer' });
    expect((await s.rest('DELETE', `/users/${user.id}`)).status).toBe(204);
  });
});
