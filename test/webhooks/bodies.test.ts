import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { attemptsOf, createWebhook, deliveriesOf, driveUntil, insertEvent } from './engine-support.js';

/**
 * The engine writes a round's bodies and log rows as PostgreSQL arrays (dispatch.repository.ts):
 * whatever characters an event's data or a receiver's answer holds, the receiver gets the body
 * byte for byte, signed, and the log keeps the answer as it came.
 */
let s: TestServer;
let receiver: Receiver;
let accountId: string;
let domainId: string;
let hook: { id: string };

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
  domainId = (await seedDomain(s)).id;
  hook = await createWebhook(s, receiver, { domainId, events: ['activity.delivered'], path: '/bodies' });
});

afterAll(async () => {
  await receiver.close();
  await s.close();
});

async function deliverOne(payload: Record<string, unknown>, answer: string) {
  receiver.respond('/bodies', { status: 200, body: answer });
  const eventId = await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.delivered', payload });
  await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).some((d) => d.event_id === eventId && d.state === 'delivered'));
  const delivery = (await deliveriesOf(s, hook.id)).find((d) => d.event_id === eventId)!;
  const sent = receiver.received('/bodies').filter((r) => r.headers['webhook-id'] === delivery.id);
  return { delivery, sent, attempts: await attemptsOf(s, delivery.id) };
}

it.each([
  ['quotes, backslashes, braces, commas and control characters', 'He said "hi" \\ {a,b}, NULL\ttab\nline \u007f é \u2028', 'ok "fine" \\ {x,y} NULL\r\n'],
  ['characters outside the basic plane', 'Your receipt 😀 𝄞', 'merci 😀 \u0001 "done"'],
])('delivers and logs %s unchanged', async (_name, subject, answer) => {
  const payload = { id: 'a1', domain_id: domainId, email: 'reader@example.net', subject, tags: ['x,y', '{z}', '"q"', 'NULL'], meta: [] };
  const { delivery, sent, attempts } = await deliverOne(payload, answer);
  expect(sent).toHaveLength(1);
  expect(sent[0].verified).toBe(true);
  expect(sent[0].raw).toBe(delivery.body);
  expect(JSON.parse(sent[0].raw)).toMatchObject({ type: 'activity.delivered', data: payload });
  expect(attempts).toHaveLength(1);
  expect(attempts[0]).toMatchObject({ success: true, status: 200, response_excerpt: answer });
});
