import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { PERMISSIONS } from '../../src/modules/users/roles.js';
import { INVITE_KEYS, USER_KEYS, inviteAndAccept, mailsTo, uniqueEmail } from './helpers.js';

const SPEC_PERMISSIONS = [
  'read-suppressions', 'read-invoice', 'read-own-templates', 'read-all-templates', 'manage-template',
  'read-analytics', 'read-activity', 'manage-api-token', 'read-filemanager',
];

let s: TestServer;
let other: { id: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  other = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const ALL_PERMISSIONS = [...PERMISSIONS];

const invalid = (key: string, message: string) => ({ message: 'The given data was invalid.', errors: { [key]: [message] } });

describe('POST /v1/users (invite)', () => {
  it('answers 200 with the invite in its exact shape', async () => {
    const email = uniqueEmail('shape');
    const res = await s.rest('POST', '/users', { body: { email, role: 'admin', permissions: ['not-a-permission'] } });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(INVITE_KEYS);
    expect(d).toMatchObject({ email, data: null, role: 'admin', requires_periodic_password_change: false });
    // A preset role ignores the permissions sent.
    expect(d.permissions).toEqual(ALL_PERMISSIONS);
    expect(d.permissions).toEqual(expect.arrayContaining(SPEC_PERMISSIONS));
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
  });

  it('keeps the chosen permissions of a Custom User, and lower-cases the address', async () => {
    const email = uniqueEmail('CUSTOM').toUpperCase();
    const res = await s.rest('POST', '/users', {
      body: { email, role: 'Custom User', permissions: ['read-invoice', 'read-analytics'], requires_periodic_password_change: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      email: email.toLowerCase(),
      role: 'Custom User',
      permissions: ['read-invoice', 'read-analytics'],
      requires_periodic_password_change: true,
    });
  });

  it('takes role names in any case, as the SDK\'s UserRole enum sends them', async () => {
    const res = await s.rest('POST', '/users', { body: { email: uniqueEmail('sdk'), role: 'Manager' } });
    expect(res.status).toBe(200);
    expect(res.body.data.role).toBe('manager');
    expect(res.body.data.permissions).not.toContain('read-invoice');
    const custom = await s.rest('POST', '/users', { body: { email: uniqueEmail('sdk'), role: 'custom user', permissions: ['read-email'] } });
    expect(custom.body.data).toMatchObject({ role: 'Custom User', permissions: ['read-email'] });
  });

  it('mails only invitations that were made', async () => {
    const email = uniqueEmail('once');
    const refused = await s.rest('POST', '/users', { body: { email, role: 'manager', domains: ['nope'] } });
    expect(refused.status).toBe(422);
    expect((await s.rest('POST', '/users', { body: { email, role: 'manager' } })).status).toBe(200);
    await mailsTo(s, email, 1);
    // Leave the worker time to deliver a stray second mail, were there one.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(s, email, 1)).toHaveLength(1);
  });

  it('422 when the address is already a user or a pending invite of the account', async () => {
    const pending = uniqueEmail('pending');
    await s.rest('POST', '/users', { body: { email: pending, role: 'manager' } });
    const again = await s.rest('POST', '/users', { body: { email: pending.toUpperCase(), role: 'manager' } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(invalid('email', 'The email has already been taken.'));

    const { user } = await inviteAndAccept(s, { email: uniqueEmail('member'), role: 'manager' });
    const member = await s.rest('POST', '/users', { body: { email: user.email, role: 'designer' } });
    expect(member.body).toEqual(invalid('email', 'The email has already been taken.'));

    // Uniqueness is per account.
    expect((await s.rest('POST', '/users', { token: other.token, body: { email: pending, role: 'manager' } })).status).toBe(200);
  });

  it('422 for a domain or template that is not the account\'s', async () => {
    const mine = await seedDomain(s);
    const theirs = await seedDomain(s, { token: other.token });
    const res = await s.rest('POST', '/users', { body: { email: uniqueEmail(), role: 'manager', domains: [mine.id, theirs.id] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('domains.1', 'The selected domains.1 is invalid.'));
    // An id that is no template of the account.
    const tpl = await s.rest('POST', '/users', { body: { email: uniqueEmail(), role: 'manager', templates: ['tpl1'] } });
    expect(tpl.body).toEqual(invalid('templates.0', 'The selected templates.0 is invalid.'));
  });

  it.each([
    [{ role: 'admin' }, 'email', 'The email field is required.'],
    [{ email: '', role: 'admin' }, 'email', 'The email field is required.'],
    [{ email: 42, role: 'admin' }, 'email', 'The email must be a string.'],
    [{ email: 'not-an-address', role: 'admin' }, 'email', 'The email must be a valid email address.'],
    [{ email: uniqueEmail() }, 'role', 'The role field is required.'],
    [{ email: uniqueEmail(), role: 'owner' }, 'role', 'The selected role is invalid.'],
    [{ email: uniqueEmail(), role: 'Custom User' }, 'permissions', 'The permissions field is required when role is Custom User.'],
    [{ email: uniqueEmail(), role: 'Custom User', permissions: [] }, 'permissions', 'The permissions field is required when role is Custom User.'],
    [{ email: uniqueEmail(), role: 'Custom User', permissions: ['read-activity', 'fly'] }, 'permissions.1', 'The selected permissions.1 is invalid.'],
    [{ email: uniqueEmail(), role: 'admin', permissions: 'read-activity' }, 'permissions', 'The permissions must be an array.'],
    [{ email: uniqueEmail(), role: 'admin', domains: ['nope'] }, 'domains.0', 'The selected domains.0 is invalid.'],
    [{ email: uniqueEmail(), role: 'admin', domains: 'nope' }, 'domains', 'The domains must be an array.'],
    [{ email: uniqueEmail(), role: 'admin', requires_periodic_password_change: 'yes' }, 'requires_periodic_password_change', 'The requires periodic password change field must be true or false.'],
  ])('422 for %j', async (body, key, message) => {
    const res = await s.rest('POST', '/users', { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('422 for an address over 320 characters', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.test`;
    expect(email.length).toBeGreaterThan(320);
    const res = await s.rest('POST', '/users', { body: { email, role: 'admin' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toContain('The email may not be greater than 320 characters.');
  });
});

describe('GET /v1/users', () => {
  it('lists users with exact keys, and pages', async () => {
    await Promise.all(Array.from({ length: 11 }, (_, i) => inviteAndAccept(s, { email: uniqueEmail(`page${i}`), role: 'designer' })));
    const res = await s.rest('GET', '/users');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    for (const u of res.body.data) {
      expect(Object.keys(u).sort()).toEqual(USER_KEYS);
      expect(u.created_at).toMatch(ISO);
      expect(typeof u['2fa']).toBe('boolean');
    }
    const first = await s.rest('GET', '/users?limit=10&page=1');
    const second = await s.rest('GET', '/users?limit=10&page=2');
    expect(first.body.data).toHaveLength(10);
    expect(second.body.data.length).toBeGreaterThan(0);
    const ids = new Set(first.body.data.map((u: any) => u.id));
    for (const u of second.body.data) expect(ids.has(u.id)).toBe(false);
  });

  it.each([
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['limit=x', 'limit', 'The limit must be an integer.'],
    ['page=0', 'page', 'The page must be at least 1.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/users?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });
});

describe('GET /v1/users/{id}', () => {
  it('answers the user, and 404 for an unknown id', async () => {
    const { user } = await inviteAndAccept(s, { email: uniqueEmail('one'), role: 'accountant' });
    const res = await s.rest('GET', `/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(USER_KEYS);
    expect(res.body.data).toEqual(user);
    expect(res.body.data.permissions).toEqual(['read-invoice', 'read-analytics']);
    const missing = await s.rest('GET', '/users/doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
  });
});
