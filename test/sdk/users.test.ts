import { randomBytes } from 'node:crypto';
import { UserPermission, UserRole, type MailerSend } from 'mailersend';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, mailsTo, NOT_FOUND, sdkDomain, sdkFor, UNKNOWN_ID } from './sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
});
afterAll(async () => {
  await s?.close();
});

const INVITE_KEYS = ['created_at', 'data', 'email', 'id', 'permissions', 'requires_periodic_password_change', 'role', 'updated_at'];
const USER_KEYS = [
  '2fa', 'avatar', 'created_at', 'domains', 'email', 'id', 'last_name', 'name', 'permissions', 'role', 'templates', 'updated_at',
];

const uniqueEmail = (tag = 'u') => `${tag}-${randomBytes(4).toString('hex')}@example.test`;

async function invite(email = uniqueEmail(), client = ms) {
  return (await client.user.create({ email, role: UserRole.Manager })).body.data as { id: string; email: string };
}

/** Follows the link in the invite mail the way the invited person would, with a JSON body. */
async function accept(email: string): Promise<void> {
  const [mail] = await mailsTo(s, email);
  const m = /\/invites\/accept\?token=([^\s"<&]+)/.exec(mail!.text);
  if (!m) throw new Error(`no accept link in: ${mail!.text}`);
  const res = await fetch(`${s.url}/invites/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: decodeURIComponent(m[1]!), name: 'Ada', last_name: 'Lovelace' }),
  });
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${await res.text()}`);
}

/** An account user, made by inviting through the SDK and accepting. */
async function member(client = ms): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('member');
  await invite(email, client);
  await accept(email);
  const list = await client.user.list({ limit: 100 });
  const user = list.body.data.find((u: { email: string }) => u.email === email);
  if (!user) throw new Error('accepted user not listed');
  return user;
}

describe('ms.user invites', () => {
  it('create answers 200 with the invite and mails the link', async () => {
    const email = uniqueEmail('invite');
    const domain = await sdkDomain(s, ms);
    const res = await ms.user.create({
      email,
      role: UserRole.CustomUser,
      permissions: ['read-invoice', 'read-analytics'],
      domains: [domain.id],
      requires_periodic_password_change: true,
    });
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(INVITE_KEYS);
    expect(d).toMatchObject({
      email, data: null, role: 'Custom User', permissions: ['read-invoice', 'read-analytics'], requires_periodic_password_change: true,
    });
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect((await mailsTo(s, email))[0]!.text).toMatch(/\/invites\/accept\?token=/);
  });

  it('create takes the SDK\'s UserRole enum values', async () => {
    for (const role of [UserRole.Admin, UserRole.Manager, UserRole.Designer, UserRole.Accountant]) {
      const res = await ms.user.create({ email: uniqueEmail('role'), role });
      expect(res.statusCode).toBe(200);
      expect(res.body.data.role.toLowerCase()).toBe(role.toLowerCase());
    }
  });

  it('create takes every permission of the SDK\'s UserPermission enum for a Custom User', async () => {
    const all = Object.values(UserPermission);
    const res = await ms.user.create({ email: uniqueEmail('perms'), role: UserRole.CustomUser, permissions: all });
    expect(res.statusCode).toBe(200);
    expect([...res.body.data.permissions].sort()).toEqual([...all].sort());
  });

  it('listInvites and singleInvite answer the pending invite', async () => {
    const i = await invite();
    const list = await ms.user.listInvites({ page: 1, limit: 100 });
    expect(list.statusCode).toBe(200);
    const row = list.body.data.find((x: { id: string }) => x.id === i.id);
    expect(row).toMatchObject({ id: i.id, email: i.email, role: 'manager' });
    const one = await ms.user.singleInvite(i.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(row);
  });

  it('resendInvite mails the link again', async () => {
    const i = await invite();
    await mailsTo(s, i.email, 1);
    const res = await ms.user.resendInvite(i.id);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: i.id, email: i.email });
    expect(await mailsTo(s, i.email, 2)).toHaveLength(2);
  });

  it('deleteInvite answers 204; the invite is gone', async () => {
    const i = await invite();
    const res = await ms.user.deleteInvite(i.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(ms.user.singleInvite(i.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('an accepted invite leaves the invite list', async () => {
    const i = await invite();
    await accept(i.email);
    expect(await failure(ms.user.singleInvite(i.id))).toEqual({ status: 404, body: NOT_FOUND });
    const list = await ms.user.listInvites({ limit: 100 });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(i.id);
  });

  it('404 for an unknown invite', async () => {
    for (const call of [
      () => ms.user.singleInvite(UNKNOWN_ID),
      () => ms.user.resendInvite(UNKNOWN_ID),
      () => ms.user.deleteInvite(UNKNOWN_ID),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const taken = await invite();
    expect(await failure(ms.user.create({ email: taken.email, role: UserRole.Manager }))).toEqual({
      status: 422,
      body: { message: INVALID, errors: { email: ['The email has already been taken.'] } },
    });
    const role = await failure(ms.user.create({ email: uniqueEmail(), role: 'Overlord' }));
    expect(role.status).toBe(422);
    expect(Object.keys(role.body.errors)).toEqual(['role']);
    const perm = await failure(ms.user.create({ email: uniqueEmail(), role: UserRole.CustomUser, permissions: ['read-invoice', 'fly'] }));
    expect(perm.status).toBe(422);
    expect(Object.keys(perm.body.errors)).toEqual(['permissions.1']);
  });

  it('another account reaches none of these invites', async () => {
    const i = await invite();
    for (const call of [
      () => other.user.singleInvite(i.id),
      () => other.user.resendInvite(i.id),
      () => other.user.deleteInvite(i.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const list = await other.user.listInvites({ limit: 100 });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(i.id);
    expect((await ms.user.singleInvite(i.id)).statusCode).toBe(200);
  });
});

describe('ms.user users', () => {
  it('list and single answer an accepted user in the SDK shape', async () => {
    const u = await member();
    const list = await ms.user.list({ page: 1, limit: 100 });
    expect(list.statusCode).toBe(200);
    const row = list.body.data.find((x: { id: string }) => x.id === u.id);
    expect(Object.keys(row).sort()).toEqual(USER_KEYS);
    expect(row).toMatchObject({ email: u.email, name: 'Ada', last_name: 'Lovelace', role: 'manager', '2fa': false, avatar: null });
    expect(row.created_at).toMatch(ISO);
    const one = await ms.user.single(u.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(row);
  });

  it('update changes role, permissions and domains', async () => {
    const u = await member();
    const domain = await sdkDomain(s, ms);
    const res = await ms.user.update(u.id, {
      role: UserRole.CustomUser,
      permissions: [UserPermission.ReadAnalytics, UserPermission.ManageDomain],
      domains: [domain.id],
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(USER_KEYS);
    expect(res.body.data).toMatchObject({ id: u.id, role: 'Custom User', permissions: ['read-analytics', 'manage-domain'] });
    expect(res.body.data.domains).toEqual([expect.objectContaining({ id: domain.id, name: domain.name })]);
  });

  it('delete answers 204; the user is gone', async () => {
    const u = await member();
    const res = await ms.user.delete(u.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(ms.user.single(u.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('404 for an unknown user', async () => {
    for (const call of [
      () => ms.user.single(UNKNOWN_ID),
      () => ms.user.update(UNKNOWN_ID, { role: UserRole.Manager }),
      () => ms.user.delete(UNKNOWN_ID),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const u = await member();
    const noRole = await failure(ms.user.update(u.id, { permissions: ['read-invoice'] }));
    expect(noRole.status).toBe(422);
    expect(noRole.body.message).toBe(INVALID);
    expect(Object.keys(noRole.body.errors)).toEqual(['role']);
    const domains = await failure(ms.user.update(u.id, { role: UserRole.Manager, domains: [UNKNOWN_ID] }));
    expect(domains.status).toBe(422);
    expect(Object.keys(domains.body.errors)).toEqual(['domains.0']);
  });

  it('another account reaches none of these users', async () => {
    const u = await member();
    for (const call of [
      () => other.user.single(u.id),
      () => other.user.update(u.id, { role: UserRole.Admin }),
      () => other.user.delete(u.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const list = await other.user.list({ limit: 100 });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(u.id);
    expect((await ms.user.single(u.id)).body.data.role).toBe('manager');
  });
});
