import { seedDomain } from '../support/factories.js';
import { startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { settled } from '../sending/helpers.js';

/**
 * `not_queued_messages_count` / `has_not_queued_messages`: messages accepted but not yet handed
 * to delivery (paused by send_paused, or scheduled for later), counted from real sends.
 */
let s: TestServer;
let paused: { id: string; name: string };
let busy: { id: string; name: string };
let idle: { id: string; name: string };

beforeAll(async () => {
  s = await startTestServer();
  [paused, busy, idle] = await Promise.all([seedDomain(s, { dkim: true }), seedDomain(s, { dkim: true }), seedDomain(s)]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

async function send(domain: { name: string }, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await s.rest('POST', '/email', {
    body: { from: { email: `a@${domain.name}` }, to: [{ email: `x${Date.now()}@example.net` }], subject: 'S', text: 'T', ...extra },
  });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${res.text}`);
  return res.headers.get('x-message-id')!;
}

const counts = (d: any) => ({ has: d.has_not_queued_messages, n: d.not_queued_messages_count });

describe('not queued messages', () => {
  let sentNow: string;
  let held: string;

  beforeAll(async () => {
    expect((await s.rest('PUT', `/domains/${paused.id}/settings`, { body: { send_paused: true } })).status).toBe(200);
    held = await send(paused);
    // Two recipients are still one message.
    await send(paused, { to: [{ email: 'p1@example.net' }, { email: 'p2@example.net' }] });
    // Paused and scheduled: held as paused, then scheduled once released.
    await send(paused, { send_at: inAnHour() });
    await send(busy, { send_at: inAnHour() });
    sentNow = await send(busy);
    await settled(s, sentNow);
  }, 30_000);

  it('counts paused and scheduled messages per domain in the list', async () => {
    const res = await s.rest('GET', '/domains?limit=100');
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.map((d: any) => [d.id, d]));
    expect(counts(byId.get(paused.id))).toEqual({ has: true, n: 3 });
    expect(counts(byId.get(busy.id))).toEqual({ has: true, n: 1 });
    expect(counts(byId.get(idle.id))).toEqual({ has: false, n: 0 });
  });

  it('counts them on the single domain, through GraphQL too, and for a domain-limited token', async () => {
    expect(counts((await s.rest('GET', `/domains/${paused.id}`)).body.data)).toEqual({ has: true, n: 3 });
    expect(counts((await s.rest('GET', `/domains/${idle.id}`)).body.data)).toEqual({ has: false, n: 0 });
    const q = `query($id: ID!) { domain(domain_id: $id) { has_not_queued_messages not_queued_messages_count }
      domains(limit: 100) { data { id has_not_queued_messages not_queued_messages_count } } }`;
    const res = await s.gql(q, { id: busy.id });
    expect(res.body.errors).toBeUndefined();
    expect(counts(res.body.data.domain)).toEqual({ has: true, n: 1 });
    expect(counts(res.body.data.domains.data.find((d: any) => d.id === paused.id))).toEqual({ has: true, n: 3 });
    const limited = await tokenWith(s, ['domains_read'], busy.id);
    const mine = await s.rest('GET', '/domains', { token: limited });
    expect(mine.body.data.map((d: any) => [d.id, d.not_queued_messages_count])).toEqual([[busy.id, 1]]);
  });

  it('drops released messages once sending is resumed; the scheduled one stays counted', async () => {
    const res = await s.rest('PUT', `/domains/${paused.id}/settings`, { body: { send_paused: false } });
    expect(res.status).toBe(200);
    expect(counts(res.body.data)).toEqual({ has: true, n: 1 });
    // The released messages go out; the count stays on the scheduled one.
    expect((await settled(s, held))[0].status).toBe('delivered');
    expect(counts((await s.rest('GET', `/domains/${paused.id}`)).body.data)).toEqual({ has: true, n: 1 });
  });
});
