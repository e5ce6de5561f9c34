import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { emailsOf, send, sql } from './helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
let other: { id: string; name: string };
const later = () => Math.floor(Date.now() / 1000) + 3600;
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  other = await seedDomain(s, { dkim: true });
});
afterAll(async () => {
  await s?.close();
});

const ROW_KEYS = ['created_at', 'message_id', 'send_at', 'status', 'status_message', 'subject'];

describe('GET /v1/message-schedules', () => {
  it('lists sends with a send_at, with their status; filters by status and domain', async () => {
    const sendAt = later();
    const waiting = await send(s, domain, { subject: 'Later', send_at: sendAt });
    const now = await send(s, domain, { subject: 'Now' });
    const failed = await send(s, other, { subject: 'Broken', send_at: later() });
    const gone = await send(s, other, { subject: 'Gone out', send_at: later() });
    await emailsOf(s, now);
    await sql(s, `update messages set status = 'error', status_message = 'The template was deleted before the send time.' where id = ?`, [failed]);
    await sql(s, `update messages set status = 'sent' where id = ?`, [gone]);

    const res = await s.rest('GET', '/message-schedules');
    expect(res.status).toBe(200);
    // COMPAT.md Pagers: a list SPEC.md leaves open answers the full pager when it pages.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.data.map((r: any) => r.message_id)).toEqual([gone, failed, waiting]);
    for (const r of res.body.data) {
      expect(Object.keys(r).sort()).toEqual(ROW_KEYS);
      expect(r.created_at).toMatch(ISO);
      expect(r.send_at).toMatch(ISO);
    }
    expect(res.body.data[2]).toMatchObject({ subject: 'Later', status: 'scheduled', status_message: null });
    expect(new Date(res.body.data[2].send_at).getTime()).toBe(sendAt * 1000);
    expect(res.body.data[1]).toMatchObject({ status: 'error', status_message: 'The template was deleted before the send time.' });
    expect(res.body.data[0]).toMatchObject({ status: 'sent' });

    const pick = async (q: string) => (await s.rest('GET', `/message-schedules?${q}`)).body.data.map((r: any) => r.message_id);
    expect(await pick('status=scheduled')).toEqual([waiting]);
    expect(await pick('status=error')).toEqual([failed]);
    expect(await pick('status=sent')).toEqual([gone]);
    expect(await pick(`domain_id=${other.id}`)).toEqual([gone, failed]);
    expect(await pick('limit=10&page=2')).toEqual([]);
    expect((await s.rest('GET', '/message-schedules?domain_id=nope')).status).toBe(404);
  });

  it.each([
    ['status=queued', 'status', 'The selected status is invalid.'],
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['page=0', 'page', 'The page must be at least 1.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/message-schedules?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
  });
});

describe('GET /v1/message-schedules/{message_id}', () => {
  it('adds the domain and the message', async () => {
    const id = await send(s, domain, { subject: 'One', send_at: later() });
    const res = await s.rest('GET', `/message-schedules/${id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...ROW_KEYS, 'domain', 'message'].sort());
    expect(d).toMatchObject({ message_id: id, subject: 'One', status: 'scheduled', domain: { id: domain.id, name: domain.name }, message: { id } });
    expect(Object.keys(d.domain).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(Object.keys(d.message).sort()).toEqual(['created_at', 'id']);
    expect(d.message.created_at).toMatch(ISO);
  });

  it('404 for an unknown id, and for a send without send_at', async () => {
    const plain = await send(s, domain);
    for (const id of ['nope', plain]) {
      const res = await s.rest('GET', `/message-schedules/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Resource not found.' });
    }
  });
});

describe('DELETE /v1/message-schedules/{message_id}', () => {
  it('cancels the send and its emails; delivery then sends nothing', async () => {
    // Due in two seconds: the delivery job runs then, and must find the message cancelled.
    const id = await send(s, domain, { subject: 'Cancel me', send_at: Math.floor(Date.now() / 1000) + 2 });
    const res = await s.rest('DELETE', `/message-schedules/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/message-schedules/${id}`)).status).toBe(404);
    expect((await s.rest('GET', '/message-schedules')).body.data.map((r: any) => r.message_id)).not.toContain(id);
    expect((await s.rest('DELETE', `/message-schedules/${id}`)).status).toBe(404);
    const [e] = await emailsOf(s, id, 'cancelled');
    await new Promise((r) => setTimeout(r, 4000));
    expect((await s.rest('GET', `/email/${e.id}`)).body.data).toMatchObject({ status: 'cancelled', content: null });
    expect(await sql(s, 'select status from messages where id = ?', [id])).toEqual([{ status: 'cancelled' }]);
  });

  it('422 once the send is no longer waiting', async () => {
    const sent = await send(s, domain, { send_at: later() });
    await sql(s, `update messages set status = 'sent' where id = ?`, [sent]);
    const failed = await send(s, domain, { send_at: later() });
    await sql(s, `update messages set status = 'error' where id = ?`, [failed]);
    for (const id of [sent, failed]) {
      const res = await s.rest('DELETE', `/message-schedules/${id}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'The given data was invalid.',
        errors: { message_id: ['Only a message that is still scheduled can be cancelled; this one has already been processed.'] },
      });
    }
  });

  it('404 unknown; 401; 403 without email_full or across domains; another account gets 404', async () => {
    const id = await send(s, domain, { send_at: later() });
    expect((await s.rest('DELETE', '/message-schedules/nope')).status).toBe(404);
    expect((await s.rest('DELETE', `/message-schedules/${id}`, { token: null })).status).toBe(401);
    const reader = await tokenWith(s, ['activity_full']);
    expect((await s.rest('GET', `/message-schedules/${id}`, { token: reader })).status).toBe(200);
    expect((await s.rest('DELETE', `/message-schedules/${id}`, { token: reader })).status).toBe(403);
    const sender = await tokenWith(s, ['email_full']);
    expect((await s.rest('GET', '/message-schedules', { token: sender })).status).toBe(403);
    const limited = await tokenWith(s, ['email_full', 'activity_read'], other.id);
    expect((await s.rest('GET', `/message-schedules/${id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('DELETE', `/message-schedules/${id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', '/message-schedules', { token: limited })).body.data.every((r: any) => r.message_id !== id)).toBe(true);
    const acct = await createAccount(s);
    expect((await s.rest('GET', '/message-schedules', { token: acct.token })).body.data).toEqual([]);
    expect((await s.rest('GET', `/message-schedules/${id}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/message-schedules/${id}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/message-schedules/${id}`, { token: sender })).status).toBe(204);
  });
});

describe('GraphQL', () => {
  it('message_schedules, message_schedule and delete_message_schedule', async () => {
    const id = await send(s, domain, { subject: 'Via GraphQL', send_at: later() });
    const list = await s.gql('query { message_schedules(status: "scheduled") { message_id status send_at } }');
    expect(list.body.data.message_schedules.map((r: any) => r.message_id)).toContain(id);
    const one = await s.gql('query($id: ID!) { message_schedule(message_id: $id) { subject domain { id } message { id } } }', { id });
    expect(one.body.data.message_schedule).toEqual({ subject: 'Via GraphQL', domain: { id: domain.id }, message: { id } });
    const del = await s.gql('mutation($id: ID!) { delete_message_schedule(message_id: $id) }', { id });
    expect(del.body.data.delete_message_schedule).toBe(true);
    const again = await s.gql('mutation($id: ID!) { delete_message_schedule(message_id: $id) }', { id });
    expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
