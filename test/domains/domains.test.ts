import { createPublicKey, createPrivateKey } from 'node:crypto';
import pg from 'pg';
import { decrypt } from '../../src/lib/secrets.js';
import { CreateDomainDocument, DomainWithListDocument } from '../generated/graphql.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

let n = 0;
/** A name the test DNS knows (so it is "resolvable"), unique per call. */
function freshName(): string {
  const name = `mail${++n}-${Date.now().toString(36)}.example.com`;
  s.dns.addName(name);
  return name;
}

async function createDomain(token?: string, extra: Record<string, unknown> = {}) {
  const res = await s.rest('POST', '/domains', { token, body: { name: freshName(), ...extra } });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** Publishes every record GET /dns-records asks for, in the test DNS server. */
async function publishRecords(id: string) {
  const { body } = await s.rest('GET', `/domains/${id}/dns-records`);
  const r = body.data;
  s.dns.add(r.spf.hostname, { type: 'TXT', data: r.spf.value });
  s.dns.add(r.dkim.hostname, { type: 'TXT', data: r.dkim.value });
  s.dns.add(r.return_path.hostname, { type: 'CNAME', domain: r.return_path.value });
  s.dns.add(r.custom_tracking.hostname, { type: 'CNAME', domain: r.custom_tracking.value });
  s.dns.add(r.inbound_routing.hostname, { type: 'MX', exchange: r.inbound_routing.value, priority: 10 });
  return r;
}

const SETTINGS_KEYS = [
  'custom_tracking_enabled', 'custom_tracking_subdomain', 'ignore_duplicated_recipients', 'precedence_bulk',
  'send_paused', 'track_clicks', 'track_content', 'track_opens', 'track_unsubscribe', 'track_unsubscribe_html',
  'track_unsubscribe_plain',
];
const CORE_KEYS = ['dkim', 'has_not_queued_messages', 'id', 'is_dns_active', 'is_verified', 'name', 'not_queued_messages_count', 'spf', 'tracking'];
const LIST_KEYS = [...CORE_KEYS, 'created_at', 'domain_settings', 'is_cname_active', 'is_cname_verified', 'is_tracking_allowed', 'updated_at'].sort();
const SINGLE_KEYS = [...LIST_KEYS, 'mx'].sort();
const CREATED_KEYS = [...CORE_KEYS, 'can', 'domain_settings', 'mx', 'totals'].sort();

describe('POST /v1/domains', () => {
  it('answers 201 in the creation shape', async () => {
    const d = await createDomain(undefined, { return_path_subdomain: 'bounces' });
    expect(Object.keys(d).sort()).toEqual(CREATED_KEYS);
    expect(Object.keys(d.domain_settings).sort()).toEqual(
      [...SETTINGS_KEYS, 'inbound_routing_enabled', 'inbound_routing_subdomain', 'return_path_subdomain',
        'track_unsubscribe_html_enabled', 'track_unsubscribe_plain_enabled'].sort(),
    );
    expect(d).toMatchObject({ dkim: null, spf: null, mx: null, tracking: null, is_verified: false, can: { manage: true }, totals: [] });
    expect(d.domain_settings.return_path_subdomain).toBe('bounces');
  });

  it.each([
    [{}, 'The name field is required.'],
    [{ name: 'Example.COM' }, 'The name must be lowercase.'],
    [{ name: 'not a domain' }, 'The name must be a valid domain name.'],
    [{ name: 'nowhere-at-all.example.com' }, 'The name must be a resolvable domain.'],
    [{ name: `${'a'.repeat(250)}.com` }, 'The name may not be greater than 253 characters.'],
  ])('422 on name for %j', async (body, message) => {
    const res = await s.rest('POST', '/domains', { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { name: [message] } });
  });

  it('422 when the name is taken, by this account or another', async () => {
    const d = await createDomain();
    const other = await createAccount(s);
    for (const token of [undefined, other.token]) {
      const res = await s.rest('POST', '/domains', { token, body: { name: d.name } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ name: ['The name has already been taken.'] });
    }
  });

  it('422 for a subdomain that is not alphanumeric', async () => {
    const res = await s.rest('POST', '/domains', { body: { name: freshName(), custom_tracking_subdomain: 'my-links' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ custom_tracking_subdomain: ['The custom tracking subdomain may only contain letters and numbers.'] });
  });
});

describe('GET /v1/domains', () => {
  it('answers the full pager with absolute links', async () => {
    for (let i = 0; i < 11; i++) await createDomain();
    const res = await s.rest('GET', '/domains?limit=10&page=2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    const { meta, links, data } = res.body;
    expect(Object.keys(meta).sort()).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    // COMPAT.md: domains also list their pages in meta.links.
    expect(meta.links[0]).toEqual({ url: links.prev, label: '&laquo; Previous', active: false });
    expect(meta.links.at(-1)).toEqual({ url: links.next, label: 'Next &raquo;', active: false });
    expect(meta.links).toHaveLength(meta.last_page + 2);
    expect(meta.links[2]).toEqual({ url: expect.stringMatching(/page=2/), label: '2', active: true });
    expect(meta).toMatchObject({ current_page: 2, per_page: 10, from: 11 });
    expect(meta.path).toMatch(/^http:\/\/[^/?]+\/v1\/domains$/);
    expect(meta.total).toBeGreaterThanOrEqual(11);
    expect(links.first).toMatch(/^http:\/\/.+\/v1\/domains\?limit=10&page=1$/);
    expect(links.prev).toMatch(/page=1$/);
    for (const d of data) {
      expect(Object.keys(d).sort()).toEqual(LIST_KEYS);
      expect(d.created_at).toMatch(PLAIN);
      expect(Object.keys(d.domain_settings).sort()).toEqual(SETTINGS_KEYS);
    }
  });

  it('answers a page past the end empty, with the total still counted', async () => {
    await createDomain();
    const first = await s.rest('GET', '/domains?limit=10');
    const { total, last_page } = first.body.meta;
    expect(total).toBeGreaterThan(0);
    const res = await s.rest('GET', `/domains?limit=10&page=${last_page + 3}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ total, last_page, current_page: last_page + 3, from: null, to: null });
  });

  it('filters by verified, strictly', async () => {
    const d = await createDomain();
    await publishRecords(d.id);
    await s.rest('GET', `/domains/${d.id}/verify`);
    const verified = await s.rest('GET', '/domains?verified=true&limit=100');
    expect(verified.body.data.map((x: any) => x.id)).toContain(d.id);
    expect(verified.body.data.every((x: any) => x.is_verified)).toBe(true);
    const unverified = await s.rest('GET', '/domains?verified=false&limit=100');
    expect(unverified.body.data.map((x: any) => x.id)).not.toContain(d.id);
    const bad = await s.rest('GET', '/domains?verified=maybe');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ verified: ['The verified field must be true or false.'] });
  });

  it.each(['limit=5', 'limit=500', 'page=0'])('422 for ?%s', async (q) => {
    expect((await s.rest('GET', `/domains?${q}`)).status).toBe(422);
  });
});

describe('GET /v1/domains/{id}', () => {
  it('answers the single shape, 404 when unknown or another account\'s', async () => {
    const d = await createDomain();
    const res = await s.rest('GET', `/domains/${d.id}`);
    expect(Object.keys(res.body.data).sort()).toEqual(SINGLE_KEYS);
    expect(res.body.data.updated_at).toMatch(PLAIN);
    expect((await s.rest('GET', '/domains/nope')).body).toEqual({ message: 'Resource not found.' });
    const other = await createAccount(s);
    expect((await s.rest('GET', `/domains/${d.id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/domains/${d.id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('PUT', `/domains/${d.id}/settings`, { token: other.token, body: { track_opens: false } })).status).toBe(404);
    const list = await s.rest('GET', '/domains?limit=100', { token: other.token });
    expect(list.body.data.map((x: any) => x.id)).not.toContain(d.id);
  });
});

describe('domain-limited tokens', () => {
  it('see and touch only their domain (403 elsewhere)', async () => {
    const mine = await createDomain();
    const theirs = await createDomain();
    const limited = await tokenWith(s, ['domains_full'], mine.id);
    expect((await s.rest('GET', `/domains/${mine.id}`, { token: limited })).status).toBe(200);
    expect((await s.rest('GET', `/domains/${theirs.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('PUT', `/domains/${theirs.id}/settings`, { token: limited, body: { track_opens: false } })).status).toBe(403);
    expect((await s.rest('DELETE', `/domains/${theirs.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('POST', '/domains', { token: limited, body: { name: freshName() } })).status).toBe(403);
    const list = await s.rest('GET', '/domains', { token: limited });
    expect(list.body.data.map((x: any) => x.id)).toEqual([mine.id]);
  });

  it('403 without the scope', async () => {
    const d = await createDomain();
    const weak = await tokenWith(s, ['email_full']);
    for (const [m, p] of [['GET', '/domains'], ['GET', `/domains/${d.id}`], ['POST', '/domains'], ['GET', `/domains/${d.id}/verify`]]) {
      expect((await s.rest(m, p, { token: weak, body: m === 'POST' ? { name: freshName() } : undefined })).status).toBe(403);
    }
    const reader = await tokenWith(s, ['domains_read']);
    expect((await s.rest('DELETE', `/domains/${d.id}`, { token: reader })).status).toBe(403);
    expect((await s.rest('GET', '/domains', { token: null })).status).toBe(401);
  });
});

describe('DNS records and verification', () => {
  it('publishes a real RSA-2048 DKIM key; the private key is stored encrypted', async () => {
    const d = await createDomain();
    const r = (await s.rest('GET', `/domains/${d.id}/dns-records`)).body.data;
    expect(Object.keys(r).sort()).toEqual(['custom_tracking', 'dkim', 'id', 'inbound_routing', 'return_path', 'spf']);
    expect(r.spf).toEqual({ hostname: d.name, type: 'TXT', value: 'v=spf1 include:_spf.postbox.local ~all' });
    expect(r.return_path).toEqual({ hostname: `mta.${d.name}`, type: 'CNAME', value: 'return.postbox.local' });
    expect(r.custom_tracking).toEqual({ hostname: `links.${d.name}`, type: 'CNAME', value: 'track.postbox.local' });
    expect(r.inbound_routing).toEqual({ hostname: `inbound.${d.name}`, type: 'MX', value: 'inbound.postbox.local', priority: 10 });
    expect(r.dkim.hostname).toBe(`pb1._domainkey.${d.name}`);
    const p = /p=([A-Za-z0-9+/=]+)$/.exec(r.dkim.value)![1];
    const pub = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    const { rows } = await db.query('select dkim_private_key_enc from domains where id = $1', [d.id]);
    await db.end();
    expect(rows[0].dkim_private_key_enc).not.toContain('PRIVATE KEY');
    const priv = createPrivateKey(decrypt('test-app-secret-0123456789abcdef0123456789', rows[0].dkim_private_key_enc));
    expect(createPublicKey(priv).export({ format: 'der', type: 'spki' }).toString('base64')).toBe(p);
  });

  it('/verify queries DNS and stores the outcome', async () => {
    const d = await createDomain();
    const before = await s.rest('GET', `/domains/${d.id}/verify`);
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(['data', 'message']);
    expect(before.body.data).toEqual({ dkim: false, spf: false, mx: false, tracking: false, cname: false, rp_cname: false });

    await publishRecords(d.id);
    const after = await s.rest('GET', `/domains/${d.id}/verify`);
    expect(after.body.data).toEqual({ dkim: true, spf: true, mx: true, tracking: true, cname: true, rp_cname: true });
    const got = (await s.rest('GET', `/domains/${d.id}`)).body.data;
    expect(got).toMatchObject({ dkim: true, spf: true, mx: true, tracking: true, is_verified: true, is_dns_active: true, is_cname_verified: true });

    // A record taken away is noticed at the next check.
    const dkimHost = `pb1._domainkey.${d.name}`;
    s.dns.remove(dkimHost);
    const gone = await s.rest('GET', `/domains/${d.id}/verify`);
    expect(gone.body.data.dkim).toBe(false);
    expect((await s.rest('GET', `/domains/${d.id}`)).body.data.is_verified).toBe(false);
  });

  it('the recheck job verifies a domain once its records appear', async () => {
    const d = await createDomain();
    await publishRecords(d.id);
    await s.app.services.boss.send('domains.recheck', {});
    const deadline = Date.now() + 15_000;
    let verified = false;
    while (!verified && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      verified = (await s.rest('GET', `/domains/${d.id}`)).body.data.is_verified;
    }
    expect(verified).toBe(true);
  });
});

describe('PUT /v1/domains/{id}/settings', () => {
  it('changes any subset of the settings', async () => {
    const d = await createDomain();
    const res = await s.rest('PUT', `/domains/${d.id}/settings`, {
      body: { send_paused: true, track_opens: false, track_unsubscribe_plain: 'Leave: {{unsubscribe}}', custom_tracking_subdomain: 'go' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(SINGLE_KEYS);
    expect(res.body.data.domain_settings).toMatchObject({
      send_paused: true, track_opens: false, track_clicks: true, track_unsubscribe_plain: 'Leave: {{unsubscribe}}', custom_tracking_subdomain: 'go',
    });
    const records = (await s.rest('GET', `/domains/${d.id}/dns-records`)).body.data;
    expect(records.custom_tracking.hostname).toBe(`go.${d.name}`);
  });

  it.each([
    [{ send_paused: 'yes' }, 'send_paused', 'The send paused field must be true or false.'],
    [{ track_unsubscribe_html: '<p>bye</p>' }, 'track_unsubscribe_html', 'The track unsubscribe html must contain the {{unsubscribe}} placeholder.'],
    [{ return_path_subdomain: 'a.b' }, 'return_path_subdomain', 'The return path subdomain may only contain letters and numbers.'],
  ])('422 for %j', async (body, key, message) => {
    const d = await createDomain();
    const res = await s.rest('PUT', `/domains/${d.id}/settings`, { body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [key]: [message] });
  });
});

describe('DELETE /v1/domains/{id}', () => {
  it('answers an empty 204; tokens limited to it stop working', async () => {
    const d = await createDomain();
    const limited = await tokenWith(s, ['domains_read'], d.id);
    const res = await s.rest('DELETE', `/domains/${d.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/domains/${d.id}`)).status).toBe(404);
    expect((await s.rest('GET', '/domains', { token: limited })).status).toBe(401);
  });
});

describe('GET /v1/domains/{id}/recipients', () => {
  it('pages the domain\'s recipients', async () => {
    const d = await createDomain();
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    const account = (await db.query('select account_id from domains where id = $1', [d.id])).rows[0].account_id;
    await db.query(
      `insert into recipients (id, created_at, updated_at, account_id, domain_id, email) values ('rcpt1' || $1, now(), now(), $2, $1, 'ann@example.org')`,
      [d.id, account],
    );
    await db.end();
    const res = await s.rest('GET', `/domains/${d.id}/recipients`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 1, current_page: 1, per_page: 25 });
    expect(res.body.data).toHaveLength(1);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['created_at', 'deleted_at', 'email', 'id', 'updated_at']);
    expect(res.body.data[0]).toMatchObject({ email: 'ann@example.org', deleted_at: '' });
    expect(res.body.data[0].created_at).toMatch(PLAIN);
    expect((await s.rest('GET', '/domains/nope/recipients')).status).toBe(404);
  });
});

describe('GraphQL surface', () => {
  it('creates, reads and deletes domains', async () => {
    const name = freshName();
    const created = await s.gql(CreateDomainDocument, { name });
    expect(created.body.data!.create_domain).toMatchObject({ name, can: { manage: true }, domain_settings: { return_path_subdomain: 'mta' } });
    const id = created.body.data!.create_domain.id;
    const one = await s.gql(DomainWithListDocument, { domain_id: id });
    expect(one.body.data!.domain.created_at).toMatch(PLAIN);
    expect(one.body.data!.domains.meta.total).toBeGreaterThan(0);
    const bad = await s.gql(`mutation { create_domain(name: "UPPER.example.com") { id } }`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].extensions.errors).toEqual({ name: ['The name must be lowercase.'] });
    const del = await s.gql(`mutation($id: ID!) { delete_domain(domain_id: $id) }`, { id });
    expect(del.body.data.delete_domain).toBe(true);
  });
});

describe('trailing slash', () => {
  it('a /v1 path written with a trailing slash is the same route (SPEC.md writes POST /v1/sms-webhooks/)', async () => {
    const plain = await s.rest('GET', '/domains?limit=10');
    const slashed = await s.rest('GET', '/domains/?limit=10');
    expect(slashed.status).toBe(200);
    expect(slashed.body.data).toEqual(plain.body.data);
  });
});
