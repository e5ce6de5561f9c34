import pg from 'pg';
import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { inviteAndAccept, uniqueEmail } from '../users/helpers.js';
import { NOT_FOUND, createCategory, createTemplate, invalid } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const FORBIDDEN = { message: expect.any(String) };

describe('authentication and scope', () => {
  it('401 without a token, on every route', async () => {
    const t = await createTemplate(s);
    for (const [method, path] of [
      ['GET', '/templates'],
      ['GET', `/templates/${t.id}`],
      ['POST', '/templates'],
      ['PUT', `/templates/${t.id}`],
      ['DELETE', `/templates/${t.id}`],
    ]) {
      const res = await s.rest(method, path, { token: null, body: method === 'GET' ? undefined : { html: 'x', text: 'x' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('403 without templates_full, reads included', async () => {
    const t = await createTemplate(s);
    const token = await tokenWith(s, ['domains_full', 'email_full']);
    for (const [method, path] of [
      ['GET', '/templates'],
      ['GET', `/templates/${t.id}`],
      ['POST', '/templates'],
      ['PUT', `/templates/${t.id}`],
      ['DELETE', `/templates/${t.id}`],
    ]) {
      const res = await s.rest(method, path, { token, body: method === 'GET' ? undefined : { html: 'x', text: 'x' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    const gql = await s.gql('{ template_categories { id } }', {}, token);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('domain-limited tokens', () => {
  it('see and touch their domain\'s templates only: another domain\'s is 403, an account-wide one 404', async () => {
    const [mine, other] = [await seedDomain(s), await seedDomain(s)];
    const token = await tokenWith(s, ['templates_full'], mine.id);
    const own = await createTemplate(s, { domain_id: mine.id });
    const foreign = await createTemplate(s, { domain_id: other.id });
    const shared = await createTemplate(s);

    const list = await s.rest('GET', '/templates?limit=100', { token });
    const ids = list.body.data.map((t: any) => t.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(foreign.id);
    expect(ids).not.toContain(shared.id);
    expect((await s.rest('GET', `/templates?domain_id=${other.id}`, { token })).status).toBe(403);
    expect((await s.rest('GET', `/templates?domain_id=${mine.id}`, { token })).body.data.map((t: any) => t.id)).toEqual([own.id]);

    expect((await s.rest('GET', `/templates/${own.id}`, { token })).status).toBe(200);
    expect((await s.rest('GET', `/templates/${shared.id}`, { token })).body).toEqual(NOT_FOUND);
    const read = await s.rest('GET', `/templates/${foreign.id}`, { token });
    expect(read.status).toBe(403);
    expect(read.body).toEqual(FORBIDDEN);

    expect((await s.rest('PUT', `/templates/${foreign.id}`, { token, body: { name: 'x' } })).status).toBe(403);
    expect((await s.rest('PUT', `/templates/${shared.id}`, { token, body: { name: 'x' } })).status).toBe(404);
    expect((await s.rest('DELETE', `/templates/${foreign.id}`, { token })).status).toBe(403);
    expect((await s.rest('DELETE', `/templates/${shared.id}`, { token })).status).toBe(404);
    expect((await s.rest('PUT', `/templates/${own.id}`, { token, body: { domain_id: other.id } })).status).toBe(403);
    expect((await s.rest('PUT', `/templates/${own.id}`, { token, body: { name: 'Mine' } })).status).toBe(200);
    expect((await s.rest('DELETE', `/templates/${own.id}`, { token })).status).toBe(204);
  });

  it('create in their domain: with none given they get it, another domain is 403', async () => {
    const [mine, other] = [await seedDomain(s), await seedDomain(s)];
    const token = await tokenWith(s, ['templates_full'], mine.id);
    const made = await createTemplate(s, {}, token);
    expect((await s.rest('GET', `/templates/${made.id}`)).body.data.domain.id).toBe(mine.id);
    const res = await s.rest('POST', '/templates', { token, body: { html: 'x', text: 'x', domain_id: other.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });
});

describe('cross-account isolation', () => {
  it('another account\'s templates, domains and categories are unknown', async () => {
    const other = await createAccount(s);
    const theirs = await createTemplate(s, {}, other.token);
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirCategory = await createCategory(s, 'Theirs', other.token);
    for (const [method, path, body] of [
      ['GET', `/templates/${theirs.id}`, undefined],
      ['PUT', `/templates/${theirs.id}`, { name: 'x' }],
      ['DELETE', `/templates/${theirs.id}`, undefined],
      ['GET', `/templates?domain_id=${theirDomain.id}`, undefined],
    ] as const) {
      const res = await s.rest(method, path, { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const list = await s.rest('GET', '/templates?limit=100');
    expect(list.body.data.map((t: any) => t.id)).not.toContain(theirs.id);
    const mine = await createTemplate(s);
    const theirList = await s.rest('GET', '/templates?limit=100', { token: other.token });
    expect(theirList.body.data.map((t: any) => t.id)).toEqual([theirs.id]);
    expect(theirList.body.data.map((t: any) => t.id)).not.toContain(mine.id);

    const withDomain = await s.rest('POST', '/templates', { body: { html: 'x', text: 'x', domain_id: theirDomain.id } });
    expect(withDomain.body).toEqual(invalid('domain_id', 'The selected domain id is invalid.'));
    const withCategory = await s.rest('POST', '/templates', { body: { html: 'x', text: 'x', categories: [theirCategory.id] } });
    expect(withCategory.body).toEqual(invalid('categories.0', 'The selected categories.0 is invalid.'));
    const del = await s.gql('mutation($id: ID!) { delete_template_category(category_id: $id) }', { id: theirCategory.id });
    expect(del.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const cats = await s.gql('{ template_categories(limit: 100) { id } }');
    expect(cats.body.data.template_categories.map((c: any) => c.id)).not.toContain(theirCategory.id);
  });
});

describe('templates not created through the API', () => {
  it('cannot be updated (404), but are readable and deletable', async () => {
    const t = await createTemplate(s, { name: 'From the app' });
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    await db.query(`update templates set created_via = 'app' where id = $1`, [t.id]);
    await db.end();
    const res = await s.rest('PUT', `/templates/${t.id}`, { body: { name: 'Changed' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    const gql = await s.gql('mutation($id: ID!) { update_template(template_id: $id, name: "Changed") { id } }', { id: t.id });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await s.rest('GET', `/templates/${t.id}`)).body.data.name).toBe('From the app');
    expect((await s.rest('DELETE', `/templates/${t.id}`)).status).toBe(204);
  });
});

describe('users limited to templates', () => {
  it('an invite accepts the account\'s template ids, and the user lists them after accepting', async () => {
    const t = await createTemplate(s, { name: 'For Ada' });
    const email = uniqueEmail('tpl');
    const { user } = await inviteAndAccept(s, { email, role: 'manager', templates: [t.id] });
    expect(user.templates).toHaveLength(1);
    expect(Object.keys(user.templates[0]).sort()).toEqual(['created_at', 'id', 'name', 'type']);
    expect(user.templates[0]).toMatchObject({ id: t.id, name: 'For Ada', type: 'html', created_at: t.created_at });
  });

  it('refuses another account\'s template id', async () => {
    const other = await createAccount(s, 'Template owner');
    const theirs = await createTemplate(s, {}, other.token);
    const res = await s.rest('POST', '/users', { body: { email: uniqueEmail(), role: 'manager', templates: [theirs.id] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('templates.0', 'The selected templates.0 is invalid.'));
  });
});
