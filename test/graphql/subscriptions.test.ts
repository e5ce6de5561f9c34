import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createWebhook } from '../webhooks/engine-support.js';

/**
 * Every subscription root field whose arguments name something of an account (a domain, a
 * webhook) refuses at subscribe time what its /v1 twin refuses: another account's id is 404, an id
 * outside a domain-limited token's domain is 403. The refusal is one error event and a closed
 * stream, never a stream held open (src/graphql/subscriptions.ts).
 */
let s: TestServer;
let mine: { id: string };
let elsewhere: { id: string };
let theirs: { id: string };
let myWebhook: string;
let theirWebhook: string;
let limited: string;
let receiver: Receiver;

beforeAll(async () => {
  // A local receiver answers the test request a webhook's creation makes.
  s = await startTestServer({ roles: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  mine = await seedDomain(s);
  elsewhere = await seedDomain(s);
  const other = await createAccount(s);
  theirs = await seedDomain(s, { token: other.token });
  myWebhook = (await createWebhook(s, receiver, { domainId: mine.id, events: ['activity.sent'], path: '/mine' })).id;
  theirWebhook = (await createWebhook(s, receiver, { domainId: theirs.id, events: ['activity.sent'], path: '/theirs', token: other.token })).id;
  limited = await tokenWith(s, ['activity_read', 'webhooks_full'], elsewhere.id);
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const ACTIVITY = (domainId: string) => `subscription { activity(domain_id: "${domainId}") { id type } }`;
const DELIVERIES = (webhookId: string) => `subscription { webhook_deliveries(webhook_id: "${webhookId}") { id status } }`;
const RANGE = `date_from=${Math.floor(Date.now() / 1000) - 3600}&date_to=${Math.floor(Date.now() / 1000) + 3600}`;

/** 'ended' once the server has closed the stream, 'still open' if it has not after `ms`. */
async function endedWithin(stream: Awaited<ReturnType<typeof subscribe>>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<string>((r) => (timer = setTimeout(() => r('still open'), ms)));
  try {
    return await Promise.race([stream.ended, open]);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscribes and waits for the server to end the stream; the events it sent before that. */
async function refusedStream(query: string, token: string) {
  const stream = await subscribe(s, query, token);
  try {
    // A stream held open never ends by itself: this rejects after its wait instead.
    const ended = await endedWithin(stream, 10_000);
    return { ended, status: stream.response.status, events: stream.events };
  } finally {
    stream.close();
  }
}

const cases = [
  {
    what: 'activity with another account\'s domain',
    query: () => ACTIVITY(theirs.id),
    token: () => ADMIN_TOKEN,
    twin: () => s.rest('GET', `/activity/${theirs.id}?${RANGE}`),
    code: 'NOT_FOUND',
    status: 404,
  },
  {
    what: 'activity outside a domain-limited token\'s domain',
    query: () => ACTIVITY(mine.id),
    token: () => limited,
    twin: () => s.rest('GET', `/activity/${mine.id}?${RANGE}`, { token: limited }),
    code: 'FORBIDDEN',
    status: 403,
  },
  {
    what: 'webhook_deliveries with another account\'s webhook',
    query: () => DELIVERIES(theirWebhook),
    token: () => ADMIN_TOKEN,
    twin: () => s.rest('GET', `/webhooks/${theirWebhook}/log`),
    code: 'NOT_FOUND',
    status: 404,
  },
  {
    what: 'webhook_deliveries outside a domain-limited token\'s domain',
    query: () => DELIVERIES(myWebhook),
    token: () => limited,
    twin: () => s.rest('GET', `/webhooks/${myWebhook}/log`, { token: limited }),
    code: 'FORBIDDEN',
    status: 403,
  },
];

describe.each(cases)('$what', ({ query, token, twin, code, status }) => {
  it(`is refused at once with ${status}, as its /v1 twin is`, async () => {
    const rest = await twin();
    expect(rest.status).toBe(status);
    const refused = await refusedStream(query(), token());
    expect(refused.ended).toBe('ended');
    expect(refused.status).toBe(status);
    expect(refused.events).toHaveLength(1);
    expect(refused.events[0].data ?? null).toBeNull();
    expect(refused.events[0].errors).toEqual([expect.objectContaining({ message: rest.body.message, extensions: { code } })]);
  });
});

it('holds the stream open for what the caller may reach', async () => {
  for (const [q, t] of [
    [ACTIVITY(mine.id), ADMIN_TOKEN],
    [ACTIVITY(elsewhere.id), limited],
    [DELIVERIES(myWebhook), ADMIN_TOKEN],
  ] as const) {
    const stream = await subscribe(s, q, t);
    try {
      const ended = await endedWithin(stream, 1_000);
      expect([q, ended, stream.events]).toEqual([q, 'still open', []]);
    } finally {
      stream.close();
    }
  }
});
