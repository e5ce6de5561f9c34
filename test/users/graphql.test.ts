import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { inviteLink, submitForm, tokenOf, uniqueEmail } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const USER = 'id avatar email last_name name two_fa created_at updated_at role permissions domains { id name created_at updated_at } templates { id name type created_at }';
const INVITE = 'id email data permissions role requires_periodic_password_change created_at updated_at';

async function gqlInvite(vars: Record<string, unknown>, token?: string) {
  return s.gql(
    `mutation($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!], $rppc: Boolean) {
      invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates, requires_periodic_password_change: $rppc) { ${INVITE} }
    }`,
    vars,
    token,
  );
}

describe('GraphQL surface', () => {
  it('invites, accepts, reads, updates and deletes users with the /v1 shapes', async () => {
    const domain = await seedDomain(s);
    const email = uniqueEmail('gql');
    const invited = await gqlInvite({ email, role: 'Custom User', permissions: ['read-activity'], domains: [domain.id], rppc: true });
    expect(invited.status).toBe(200);
    const inv = invited.body.data!.invite_user;
    expect(inv).toMatchObject({ email, data: null, role: 'Custom User', permissions: ['read-activity'], requires_periodic_password_change: true });
    expect(inv.created_at).toMatch(ISO);

    const one = await s.gql(`query($id: ID!) { invite(invite_id: $id) { ${INVITE} } }`, { id: inv.id });
    expect(one.body.data!.invite).toEqual(inv);
    const list = await s.gql(`query { invites(limit: 100) { id } }`);
    expect(list.body.data!.invites.map((i: any) => i.id)).toContain(inv.id);

    const resent = await s.gql(`mutation($id: ID!) { resend_invite(invite_id: $id) { id } }`, { id: inv.id });
    expect(resent.body.data!.resend_invite.id).toBe(inv.id);
    const link = await inviteLink(s, email, 2);
    expect((await submitForm(s, { token: tokenOf(link), name: 'Gql', last_name: 'User' })).status).toBe(200);

    const users = await s.gql(`query { users(limit: 100, page: 1) { ${USER} } }`);
    const user = users.body.data!.users.find((u: any) => u.email === email);
    expect(user).toMatchObject({ avatar: null, name: 'Gql', last_name: 'User', two_fa: false, role: 'Custom User', templates: [] });
    expect(user.domains).toEqual([expect.objectContaining({ id: domain.id, name: domain.name })]);
    expect(user.updated_at).toMatch(ISO);
    const single = await s.gql(`query($id: ID!) { user(user_id: $id) { ${USER} } }`, { id: user.id });
    expect(single.body.data!.user).toEqual(user);
    // The same user on /v1 carries `2fa` instead.
    const rest = await s.rest('GET', `/users/${user.id}`);
    const { '2fa': twoFa, ...restOthers } = rest.body.data;
    const { two_fa, ...gqlOthers } = user;
    expect(twoFa).toBe(two_fa);
    expect(restOthers).toEqual(gqlOthers);

    const updated = await s.gql(`mutation($id: ID!) { update_user(user_id: $id, role: "manager", domains: []) { role permissions domains { id } } }`, {
      id: user.id,
    });
    expect(updated.body.data!.update_user.role).toBe('manager');
    expect(updated.body.data!.update_user.domains).toEqual([]);
    expect(updated.body.data!.update_user.permissions).not.toContain('read-invoice');

    const deleted = await s.gql(`mutation($id: ID!) { delete_user(user_id: $id) }`, { id: user.id });
    expect(deleted.body.data!.delete_user).toBe(true);
    const after = await s.gql(`query($id: ID!) { user(user_id: $id) { id } }`, { id: user.id });
    expect(after.status).toBe(404);
  });

  it('deletes an invite', async () => {
    const inv = (await gqlInvite({ email: uniqueEmail('gdel'), role: 'designer' })).body.data!.invite_user;
    const res = await s.gql(`mutation($id: ID!) { delete_invite(invite_id: $id) }`, { id: inv.id });
    expect(res.body.data!.delete_invite).toBe(true);
    expect((await s.gql(`query($id: ID!) { invite(invite_id: $id) { id } }`, { id: inv.id })).status).toBe(404);
  });

  it('answers the same statuses as /v1: 422, 404, 403, 401', async () => {
    const bad = await gqlInvite({ email: 'nope', role: 'Custom User', permissions: ['fly'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toBe('The given data was invalid.');
    expect(bad.body.errors[0].extensions.errors).toEqual({
      email: ['The email must be a valid email address.'],
      'permissions.0': ['The selected permissions.0 is invalid.'],
    });
    const required = await gqlInvite({ email: uniqueEmail(), role: 'Custom User' });
    expect(required.status).toBe(422);
    expect(required.body.errors[0].extensions.errors).toEqual({
      permissions: ['The permissions field is required when role is Custom User.'],
    });

    const missing = await s.gql(`query { user(user_id: "nope") { id } }`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].message).toBe('Resource not found.');
    expect((await s.gql(`mutation { resend_invite(invite_id: "nope") { id } }`)).status).toBe(404);

    const weak = await tokenWith(s, ['users_read']);
    expect((await s.gql(`query { users { id } }`, {}, weak)).status).toBe(200);
    expect((await gqlInvite({ email: uniqueEmail(), role: 'admin' }, weak)).status).toBe(403);
    const none = await tokenWith(s, ['domains_read']);
    expect((await s.gql(`query { invites { id } }`, {}, none)).status).toBe(403);
    expect((await s.gql(`query { users { id } }`, {}, null)).status).toBe(401);
  });

  it('keeps accounts apart', async () => {
    const other = await createAccount(s);
    const inv = (await gqlInvite({ email: uniqueEmail('iso'), role: 'manager' })).body.data!.invite_user;
    expect((await s.gql(`query($id: ID!) { invite(invite_id: $id) { id } }`, { id: inv.id }, other.token)).status).toBe(404);
    expect((await s.gql(`mutation($id: ID!) { delete_invite(invite_id: $id) }`, { id: inv.id }, other.token)).status).toBe(404);
    const theirs = await s.gql(`query { invites(limit: 100) { id } }`, {}, other.token);
    expect(theirs.body.data!.invites).toEqual([]);
  });
});
