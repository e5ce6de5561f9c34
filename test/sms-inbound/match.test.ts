import { accountIdOf } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { driveUntil } from '../webhooks/engine-support.js';
import { assignNumber, randomNumber, sql, targetOf } from './support.js';
import { TWILIO_ENV, inboundFields, postInbound } from './twilio.js';

let s: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  s = await startTestServer({ env: TWILIO_ENV, roles: ['api'] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const TEXTS = ['HELP', ' help ', 'help me', 'my ORDER 42', 'Yes please', 'ok thanks', 'nothing', 'Ünïcode café'];

/**
 * Each comparer with the texts it takes, by hand. Comparisons ignore case and the spaces around
 * the text (' help ' equals 'help').
 */
const CASES: [string | null, string | null, string[]][] = [
  ['equal', 'help', ['HELP', ' help ']],
  ['not-equal', 'help', ['help me', 'my ORDER 42', 'Yes please', 'ok thanks', 'nothing', 'Ünïcode café']],
  ['contains', 'Order', ['my ORDER 42']],
  ['not-contains', 'order', ['HELP', ' help ', 'help me', 'Yes please', 'ok thanks', 'nothing', 'Ünïcode café']],
  ['starts-with', 'YES', ['Yes please']],
  ['ends-with', 'thanks', ['ok thanks']],
  ['not-starts-with', 'yes', ['HELP', ' help ', 'help me', 'my ORDER 42', 'ok thanks', 'nothing', 'Ünïcode café']],
  ['not-ends-with', 'THANKS', ['HELP', ' help ', 'help me', 'my ORDER 42', 'Yes please', 'nothing', 'Ünïcode café']],
  ['contains', 'ÜNÏCODE', ['Ünïcode café']],
  [null, null, TEXTS],
];

it('forwards each text to exactly the routes whose filter takes it, for every comparer', async () => {
  const number = await assignNumber(s, await accountIdOf(s));
  const routes = [];
  for (const [i, [comparer, value, expected]] of CASES.entries()) {
    const path = `/match/${i}`;
    const res = await s.rest('POST', '/sms-inbounds', {
      body: { sms_number_id: number.id, name: `${comparer ?? 'all'} ${value ?? ''}`, forward_url: receiver.url(path), filter: comparer ? { comparer, value } : undefined },
    });
    expect(res.status).toBe(201);
    receiver.secretFor(path, res.body.data.secret);
    routes.push({ path, expected, webhookId: (await targetOf(s, res.body.data.id)).id as string });
  }

  for (const text of TEXTS) {
    expect((await postInbound(s, inboundFields(number.telephone_number, randomNumber(), text))).status).toBe(200);
  }
  const total = routes.reduce((n, r) => n + r.expected.length, 0);
  await driveUntil(s, async () => receiver.requests.length >= total);
  // A last round: anything wrongly queued would arrive now.
  await driveUntil(s, async () => {
    const [row] = await sql(s, `select count(*)::int as n from webhook_deliveries where state = 'pending'`);
    return row.n === 0;
  });

  for (const r of routes) {
    const got = receiver.received(r.path);
    expect({ path: r.path, texts: got.map((g) => g.json.data.text).sort() }).toEqual({ path: r.path, texts: [...r.expected].sort() });
    expect(got.every((g) => g.verified)).toBe(true);
  }
  expect(receiver.requests).toHaveLength(total);
});
