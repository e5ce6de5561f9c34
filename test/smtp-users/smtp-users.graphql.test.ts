import { ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { SmtpUserService } from '../../src/modules/smtp-users/smtp-user.service.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer({ env: { SMTP_PUBLIC_HOST: 'smtp.example.test', SMTP_PUBLIC_PORT: '587' } });
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const FIELDS = 'id name username enabled accessed_at server port domain_id created_at';
const CREATE = `mutation($d: ID!, $name: String!, $enabled: Boolean) {
  create_smtp_user(domain_id: $d, name: $name, enabled: $enabled) { ${FIELDS} password } }`;

async function gqlCreate(name: string, enabled?: boolean, token?: string) {
  const res = await s.gql(CREATE, { d: domain.id, name, enabled }, token);
  return res;
}

async function created(name: string) {
  const res = await gqlCreate(name);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.create_smtp_user as Record<string, any>;
}

describe('GraphQL surface', () => {
  it('creates, reads, updates and deletes with the /v1 shapes', async () => {
    const u = await created('gql');
    expect(u).toMatchObject({ name: 'gql', enabled: true, accessed_at: null, domain_id: domain.id, server: 'smtp.example.test', port: 587 });
    expect(u.username).toMatch(new RegExp(`^MS_[a-z0-9]{6}@${domain.name.replace(/\./g, '\\.')}$`));
    expect(u.password.length).toBeGreaterThanOrEqual(32);
    expect(u.created_at).toMatch(ISO);

    const one = await s.gql(`query($d: ID!, $id: ID!) { smtp_user(domain_id: $d, smtp_user_id: $id) { ${FIELDS} } }`, { d: domain.id, id: u.id });
    const { password: _password, ...record } = u;
    expect(one.body.data.smtp_user).toEqual(record);

    const list = await s.gql(`query($d: ID!) { smtp_users(domain_id: $d, limit: 10, page: 1) { id } }`, { d: domain.id });
    expect(list.body.data.smtp_users.map((x: any) => x.id)).toContain(u.id);

    const upd = await s.gql(
      `mutation($d: ID!, $id: ID!) { update_smtp_user(domain_id: $d, smtp_user_id: $id, name: "renamed", enabled: false) { id name enabled } }`,
      { d: domain.id, id: u.id },
    );
    expect(upd.body.data.update_smtp_user).toEqual({ id: u.id, name: 'renamed', enabled: false });

    const del = await s.gql(`mutation($d: ID!, $id: ID!) { delete_smtp_user(domain_id: $d, smtp_user_id: $id) }`, { d: domain.id, id: u.id });
    expect(del.body.data.delete_smtp_user).toBe(true);
    const after = await s.gql(`query($d: ID!) { smtp_users(domain_id: $d) { id } }`, { d: domain.id });
    expect(after.body.data.smtp_users.map((x: any) => x.id)).not.toContain(u.id);
  });

  it('the normal type has no password field', async () => {
    const res = await s.gql(`query($d: ID!) { smtp_users(domain_id: $d) { id password } }`, { d: domain.id });
    expect(res.body.errors[0].message).toContain('Cannot query field "password"');
  });

  it('answers the same statuses as /v1: 422, 404, 403, 401', async () => {
    const invalid = await gqlCreate('x'.repeat(51));
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].message).toBe('The given data was invalid.');
    expect(invalid.body.errors[0].extensions.errors).toEqual({ name: ['The name may not be greater than 50 characters.'] });

    const badLimit = await s.gql(`query($d: ID!) { smtp_users(domain_id: $d, limit: 5) { id } }`, { d: domain.id });
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.errors[0].extensions.errors).toEqual({ limit: ['The limit must be at least 10.'] });

    const missing = await s.gql(`query($d: ID!) { smtp_user(domain_id: $d, smtp_user_id: "nope") { id } }`, { d: domain.id });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].message).toBe('Resource not found.');
    const noDomain = await s.gql(`query { smtp_users(domain_id: "nope") { id } }`);
    expect(noDomain.status).toBe(404);

    const weak = await tokenWith(s, ['smtp_users_read']);
    expect((await gqlCreate('w', undefined, weak)).status).toBe(403);
    const other = await seedDomain(s);
    const limited = await tokenWith(s, ['smtp_users_full'], other.id);
    expect((await s.gql(`query($d: ID!) { smtp_users(domain_id: $d) { id } }`, { d: domain.id }, limited)).status).toBe(403);

    expect((await s.gql(`query($d: ID!) { smtp_users(domain_id: $d) { id } }`, { d: domain.id }, null)).status).toBe(401);
    expect((await s.gql(`query($d: ID!) { smtp_users(domain_id: $d) { id } }`, { d: domain.id }, 'mlsn.bogus')).status).toBe(401);
  });
});

describe('SmtpUserService.authenticate (for the SMTP relay)', () => {
  const svc = () => new SmtpUserService(s.app.services.orm.em.fork(), s.app.services);

  it('accepts the right password and records accessed_at', async () => {
    const u = await created('auth-ok');
    const user = await svc().authenticate(u.username, u.password);
    expect(user?.id).toBe(u.id);
    expect(user?.domain.name).toBe(domain.name);
    const res = await s.rest('GET', `/domains/${domain.id}/smtp-users/${u.id}`);
    expect(res.body.data.accessed_at).toMatch(ISO);
    expect(Date.now() - Date.parse(res.body.data.accessed_at)).toBeLessThan(60_000);
  });

  it('refuses a wrong password and an unknown username', async () => {
    const u = await created('auth-bad');
    expect(await svc().authenticate(u.username, `${u.password}x`)).toBeNull();
    expect(await svc().authenticate(u.username, '')).toBeNull();
    expect(await svc().authenticate(`MS_zzzzzz@${domain.name}`, u.password)).toBeNull();
    // A refused attempt leaves accessed_at alone.
    const res = await s.rest('GET', `/domains/${domain.id}/smtp-users/${u.id}`);
    expect(res.body.data.accessed_at).toBeNull();
  });

  it('refuses a disabled user, and accepts it again once re-enabled', async () => {
    const u = await created('auth-disabled');
    const path = `/domains/${domain.id}/smtp-users/${u.id}`;
    await s.rest('PUT', path, { body: { enabled: false } });
    expect(await svc().authenticate(u.username, u.password)).toBeNull();
    await s.rest('PUT', path, { body: { enabled: true } });
    expect((await svc().authenticate(u.username, u.password))?.id).toBe(u.id);
  });

  it('refuses a deleted user', async () => {
    const u = await created('auth-deleted');
    await s.rest('DELETE', `/domains/${domain.id}/smtp-users/${u.id}`);
    expect(await svc().authenticate(u.username, u.password)).toBeNull();
  });

  it('spends a scrypt on an unknown username too, so timing does not reveal which exist', async () => {
    const u = await created('auth-timing');
    const time = async (username: string) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await svc().authenticate(username, 'wrong password');
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    const known = await time(u.username);
    const unknown = await time(`MS_nobody@${domain.name}`);
    // Without the dummy hash an unknown name costs one indexed lookup, far under a scrypt.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });
});
