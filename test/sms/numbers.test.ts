import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { assignNumber, INVALID, NOT_FOUND, sql } from './support.js';

let s: TestServer;
let other: { id: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  other = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const KEYS = ['created_at', 'id', 'paused', 'telephone_number'];

describe('GET /v1/sms-numbers', () => {
  it('lists the account\'s numbers, newest first, filtered by paused', async () => {
    const a = await assignNumber(s);
    const b = await assignNumber(s);
    await assignNumber(s, other.token);
    expect((await s.rest('PUT', `/sms-numbers/${a.id}`, { body: { paused: true } })).status).toBe(200);

    const res = await s.rest('GET', '/sms-numbers?limit=100');
    expect(res.status).toBe(200);
    // COMPAT.md Pagers: a list SPEC.md leaves open answers the full pager when it pages.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    const ids = res.body.data.map((n: { id: string }) => n.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const row = res.body.data.find((n: { id: string }) => n.id === a.id);
    expect(Object.keys(row).sort()).toEqual(KEYS);
    expect(row).toMatchObject({ telephone_number: a.telephone_number, paused: true });
    expect(row.created_at).toMatch(ISO);

    const paused = await s.rest('GET', '/sms-numbers?paused=true&limit=100');
    expect(paused.body.data.every((n: { paused: boolean }) => n.paused)).toBe(true);
    expect(paused.body.data.map((n: { id: string }) => n.id)).toContain(a.id);
    const active = await s.rest('GET', '/sms-numbers?paused=false&limit=100');
    expect(active.body.data.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining([b.id]));
    expect(active.body.data.map((n: { id: string }) => n.id)).not.toContain(a.id);
  });

  it('pages with page and limit', async () => {
    for (let i = 0; i < 11; i++) await assignNumber(s);
    const p1 = await s.rest('GET', '/sms-numbers?limit=10&page=1');
    const p2 = await s.rest('GET', '/sms-numbers?limit=10&page=2');
    expect(p1.body.data).toHaveLength(10);
    expect(p2.body.data.length).toBeGreaterThan(0);
    const first = new Set(p1.body.data.map((n: { id: string }) => n.id));
    expect(p2.body.data.some((n: { id: string }) => first.has(n.id))).toBe(false);
  });

  it('answers 422 for a bad paused, limit or page', async () => {
    expect(await s.rest('GET', '/sms-numbers?paused=maybe').then((r) => r.body)).toEqual({
      message: INVALID,
      errors: { paused: ['The paused field must be true or false.'] },
    });
    expect((await s.rest('GET', '/sms-numbers?limit=9')).body.errors).toEqual({ limit: ['The limit must be at least 10.'] });
    expect((await s.rest('GET', '/sms-numbers?limit=101')).body.errors).toEqual({ limit: ['The limit may not be greater than 100.'] });
    expect((await s.rest('GET', '/sms-numbers?page=0')).body.errors).toEqual({ page: ['The page must be at least 1.'] });
  });

  it('never shows another account\'s numbers', async () => {
    const theirs = await assignNumber(s, other.token);
    const mine = await s.rest('GET', '/sms-numbers?limit=100');
    expect(mine.body.data.map((n: { id: string }) => n.id)).not.toContain(theirs.id);
    const list = await s.rest('GET', '/sms-numbers', { token: other.token });
    expect(list.body.data.map((n: { id: string }) => n.id)).toContain(theirs.id);
  });
});

describe('GET/PUT/DELETE /v1/sms-numbers/{id}', () => {
  it('shows one number', async () => {
    const n = await assignNumber(s);
    const res = await s.rest('GET', `/sms-numbers/${n.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(KEYS);
    expect(res.body.data).toMatchObject({ id: n.id, telephone_number: n.telephone_number, paused: false });
  });

  it('pauses through the query string (SPEC.md) and unpauses through the body (the SDK)', async () => {
    const n = await assignNumber(s);
    const paused = await s.rest('PUT', `/sms-numbers/${n.id}?paused=true`);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id: n.id, paused: true });
    expect((await s.rest('GET', `/sms-numbers/${n.id}`)).body.data.paused).toBe(true);
    const resumed = await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: false } });
    expect(resumed.body.data.paused).toBe(false);
    expect((await sql(s, 'select paused from sms_numbers where id = ?', [n.id]))[0].paused).toBe(false);
  });

  it('answers 422 when paused is missing or not a boolean', async () => {
    const n = await assignNumber(s);
    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { body: {} })).body).toEqual({
      message: INVALID,
      errors: { paused: ['The paused field is required.'] },
    });
    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: 'yes' } })).body.errors).toEqual({
      paused: ['The paused field must be true or false.'],
    });
    expect((await s.rest('PUT', `/sms-numbers/${n.id}?paused=sometimes`)).status).toBe(422);
  });

  it('deletes with an empty 204, then 404', async () => {
    const n = await assignNumber(s);
    const res = await s.rest('DELETE', `/sms-numbers/${n.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/sms-numbers/${n.id}`)).body).toEqual(NOT_FOUND);
    expect((await s.rest('DELETE', `/sms-numbers/${n.id}`)).status).toBe(404);
  });

  it('answers 404 for unknown ids and for another account\'s number, which stays untouched', async () => {
    const theirs = await assignNumber(s, other.token);
    for (const id of ['nope', theirs.id]) {
      const get = await s.rest('GET', `/sms-numbers/${id}`);
      expect([get.status, get.body]).toEqual([404, NOT_FOUND]);
      expect((await s.rest('PUT', `/sms-numbers/${id}`, { body: { paused: true } })).status).toBe(404);
      expect((await s.rest('DELETE', `/sms-numbers/${id}`)).status).toBe(404);
    }
    const still = await s.rest('GET', `/sms-numbers/${theirs.id}`, { token: other.token });
    expect(still.body.data).toMatchObject({ id: theirs.id, paused: false });
  });
});

describe('auth', () => {
  it('answers 401 without a token', async () => {
    expect(await s.rest('GET', '/sms-numbers', { token: null }).then((r) => [r.status, r.body])).toEqual([401, { message: 'Unauthenticated.' }]);
  });

  it('needs sms_read to read and sms_full to change', async () => {
    const n = await assignNumber(s);
    const none = await tokenWith(s, ['domains_read']);
    const read = await tokenWith(s, ['sms_read']);
    const full = await tokenWith(s, ['sms_full']);
    expect((await s.rest('GET', '/sms-numbers', { token: none })).status).toBe(403);
    expect((await s.rest('GET', `/sms-numbers/${n.id}`, { token: none })).status).toBe(403);
    expect((await s.rest('GET', '/sms-numbers', { token: read })).status).toBe(200);
    expect((await s.rest('GET', `/sms-numbers/${n.id}`, { token: read })).status).toBe(200);
    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { token: read, body: { paused: true } })).status).toBe(403);
    expect((await s.rest('DELETE', `/sms-numbers/${n.id}`, { token: read })).status).toBe(403);
    expect((await s.rest('GET', '/sms-numbers', { token: full })).status).toBe(200);
    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { token: full, body: { paused: true } })).status).toBe(200);
    expect((await s.rest('DELETE', `/sms-numbers/${n.id}`, { token: full })).status).toBe(204);
  });
});

describe('GraphQL', () => {
  it('lists, reads, updates and deletes numbers', async () => {
    const n = await assignNumber(s);
    const list = await s.gql('query { sms_numbers(limit: 100, paused: false) { id telephone_number paused created_at } }');
    expect(list.body.data.sms_numbers).toContainEqual({ id: n.id, telephone_number: n.telephone_number, paused: false, created_at: expect.stringMatching(ISO) });
    const one = await s.gql('query($id: ID!) { sms_number(sms_number_id: $id) { id paused } }', { id: n.id });
    expect(one.body.data.sms_number).toEqual({ id: n.id, paused: false });
    const upd = await s.gql('mutation($id: ID!) { update_sms_number(sms_number_id: $id, paused: true) { id paused } }', { id: n.id });
    expect(upd.body.data.update_sms_number).toEqual({ id: n.id, paused: true });
    const del = await s.gql('mutation($id: ID!) { delete_sms_number(sms_number_id: $id) }', { id: n.id });
    expect(del.body.data.delete_sms_number).toBe(true);
    const gone = await s.gql('query($id: ID!) { sms_number(sms_number_id: $id) { id } }', { id: n.id });
    expect(gone.body.errors[0]).toMatchObject({ message: 'Resource not found.', extensions: { code: 'NOT_FOUND' } });
    const theirs = await assignNumber(s, other.token);
    const cross = await s.gql('query($id: ID!) { sms_number(sms_number_id: $id) { id } }', { id: theirs.id });
    expect(cross.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const readOnly = await tokenWith(s, ['sms_read']);
    const denied = await s.gql('mutation($id: ID!) { update_sms_number(sms_number_id: $id, paused: true) { id } }', { id: theirs.id }, readOnly);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
