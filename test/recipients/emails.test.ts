import { seedDomain } from '../support/factories.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { settled } from '../sending/helpers.js';

/** The `emails` of GET /v1/recipients/{id} and the `recipient` query, filled by real sends. */
let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const EMAIL_KEYS = ['created_at', 'from', 'id', 'message_id', 'status', 'subject', 'tags'];
let n = 0;
const address = () => `rcpt${++n}-${Date.now()}@example.net`;

async function send(from: string, to: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await s.rest('POST', '/email', { body: { from: { email: from }, to: [{ email: to }], subject: 'Hello', text: 'Hi', ...extra } });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${res.text}`);
  return res.headers.get('x-message-id')!;
}

async function recipientId(domainId: string, email: string): Promise<string> {
  const list = await s.rest('GET', `/recipients?domain_id=${domainId}&limit=100`);
  const hit = list.body.data.find((r: any) => r.email === email);
  if (!hit) throw new Error(`no recipient ${email}`);
  return hit.id;
}

describe('a recipient with emails', () => {
  const to = address();
  const from = () => `news@${domain.name}`;
  let first: string;
  let second: string;
  let id: string;

  beforeAll(async () => {
    first = await send(from(), to, { subject: 'First', tags: ['welcome', 'a'] });
    await settled(s, first);
    second = await send(from(), to, { subject: 'Second' });
    await settled(s, second);
    // Someone else's email to another address stays out of this recipient's list.
    await settled(s, await send(from(), address()));
    id = await recipientId(domain.id, to);
  }, 30_000);

  it('lists its emails, newest first, in the compact shape', async () => {
    const res = await s.rest('GET', `/recipients/${id}`);
    expect(res.status).toBe(200);
    const { emails } = res.body.data;
    expect(emails).toHaveLength(2);
    for (const e of emails) {
      expect(Object.keys(e).sort()).toEqual(EMAIL_KEYS);
      expect(e.id).toMatch(/^[a-z0-9]+$/);
      expect(e.created_at).toMatch(PLAIN);
    }
    expect(emails[0]).toMatchObject({ message_id: second, from: from(), subject: 'Second', status: 'delivered', tags: null });
    expect(emails[1]).toMatchObject({ message_id: first, from: from(), subject: 'First', status: 'delivered', tags: ['welcome', 'a'] });
    expect(res.body.data.domain).toMatchObject({ id: domain.id, not_queued_messages_count: 0, has_not_queued_messages: false });
  });

  it('answers the same through GraphQL', async () => {
    const res = await s.gql(
      'query($id: ID!) { recipient(recipient_id: $id) { id emails { id message_id from subject status tags created_at } } }',
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    const rest = await s.rest('GET', `/recipients/${id}`);
    expect(res.body.data.recipient).toEqual({ id, emails: rest.body.data.emails });
  });

  it('is 404 for another account and 403 for a token of another domain', async () => {
    const other = await createAccount(s);
    expect((await s.rest('GET', `/recipients/${id}`, { token: other.token })).body).toEqual({ message: 'Resource not found.' });
    const gql = await s.gql('query($id: ID!) { recipient(recipient_id: $id) { id } }', { id }, other.token);
    expect(gql.status).toBe(404);
    const elsewhere = await seedDomain(s);
    const limited = await tokenWith(s, ['recipients_read'], elsewhere.id);
    expect((await s.rest('GET', `/recipients/${id}`, { token: limited })).status).toBe(403);
    const mine = await tokenWith(s, ['recipients_read'], domain.id);
    expect((await s.rest('GET', `/recipients/${id}`, { token: mine })).body.data.emails).toHaveLength(2);
  });
});

describe('the email list cap', () => {
  it('shows the latest 100 emails only, and counts the held messages on the domain', async () => {
    // A paused domain keeps every message unsent, so 101 sends need no delivery.
    const paused = await seedDomain(s);
    expect((await s.rest('PUT', `/domains/${paused.id}/settings`, { body: { send_paused: true } })).status).toBe(200);
    const to = address();
    const ids: string[] = [];
    for (let i = 0; i < 101; i += 10) {
      const batch = Array.from({ length: Math.min(10, 101 - i) }, (_, j) => send(`a@${paused.name}`, to, { subject: `n${i + j}` }));
      ids.push(...(await Promise.all(batch)));
    }
    const res = await s.rest('GET', `/recipients/${await recipientId(paused.id, to)}`);
    const { emails, domain: d } = res.body.data;
    expect(emails).toHaveLength(100);
    expect(new Set(emails.map((e: any) => e.message_id)).size).toBe(100);
    expect(emails.every((e: any) => e.status === 'paused')).toBe(true);
    // Newest first: creation times never go up along the list.
    const times = emails.map((e: any) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(d).toMatchObject({ id: paused.id, has_not_queued_messages: true, not_queued_messages_count: 101 });
  }, 60_000);
});
