import { accountIdOf } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { deliveriesOf, driveUntil } from '../webhooks/engine-support.js';
import { assignNumber, randomNumber, sql, targetOf } from './support.js';
import { TWILIO_ENV } from './twilio.js';

/**
 * The SMS sandbox's way in: under the capture provider nothing calls the service back, so
 * `simulate_sms_inbound` makes a text arrive at one of the account's numbers, and its routes
 * forward it as they would a text the provider posted.
 */
let s: TestServer;
let receiver: Receiver;
let accountId: string;

beforeAll(async () => {
  // No worker role: the webhook engine moves when the test drives it.
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, roles: ['api'] });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const SIMULATE = `mutation ($sms_number_id: ID!, $from: String!, $text: String!) {
  simulate_sms_inbound(sms_number_id: $sms_number_id, from: $from, text: $text) { id forwarded_to }
}`;

const stored = (numberId: string) => sql(s, 'select * from sms_inbound_messages where sms_number_id = ? order by created_at', [numberId]);

let seq = 0;
async function route(numberId: string, extra: Record<string, unknown> = {}) {
  const path = `/sim/${++seq}`;
  const res = await s.rest('POST', '/sms-inbounds', { body: { sms_number_id: numberId, name: `sim ${seq}`, forward_url: receiver.url(path), ...extra } });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  receiver.secretFor(path, res.body.data.secret);
  return { ...res.body.data, path, webhookId: (await targetOf(s, res.body.data.id)).id as string };
}

it('makes a text arrive at the number: stored as received, forwarded signed by the routes whose filter takes it', async () => {
  const number = await assignNumber(s, accountId);
  const every = await route(number.id);
  const other = await route(number.id, { filter: { comparer: 'starts-with', value: 'ORDER' } });
  const from = randomNumber();

  const res = await s.gql(SIMULATE, { sms_number_id: number.id, from, text: 'Hello from the sandbox' });
  expect(res.body.errors).toBeUndefined();
  const simulated = res.body.data.simulate_sms_inbound;
  expect(simulated).toEqual({ id: expect.any(String), forwarded_to: 1 });

  const [msg] = await stored(number.id);
  expect(msg).toMatchObject({ id: simulated.id, account_id: accountId, from, to: number.telephone_number, text: 'Hello from the sandbox' });
  expect(msg.provider_id).toMatch(/^cap_in_[0-9a-z]{24}$/);
  expect(await deliveriesOf(s, other.webhookId)).toEqual([]);

  await driveUntil(s, async () => (await deliveriesOf(s, every.webhookId))[0]?.state === 'delivered');
  const [got] = receiver.received(every.path);
  expect(got.verified).toBe(true);
  expect(got.json).toMatchObject({
    type: 'sms.inbound',
    sms_inbound_id: every.id,
    sms_number_id: number.id,
    data: { id: simulated.id, from, to: number.telephone_number, text: 'Hello from the sandbox' },
  });
});

it('answers 422 for another account\'s number, a sender not in E.164 or a blank text, and stores nothing', async () => {
  const number = await assignNumber(s, accountId);
  const stranger = await createAccount(s, 'SMS simulate stranger');
  const theirs = await assignNumber(s, stranger.id);

  const cross = await s.gql(SIMULATE, { sms_number_id: theirs.id, from: randomNumber(), text: 'hi' });
  expect(cross.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', errors: { sms_number_id: ['The selected sms number id is invalid.'] } } });
  expect(await stored(theirs.id)).toEqual([]);

  const bad = await s.gql(SIMULATE, { sms_number_id: number.id, from: '5551234', text: '   ' });
  expect(bad.body.errors[0].extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    errors: { from: ['The from must be a phone number in E.164 format (e.g. +15551234567).'], text: ['The text field is required.'] },
  });
  const long = await s.gql(SIMULATE, { sms_number_id: number.id, from: randomNumber(), text: 'x'.repeat(2049) });
  expect(long.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  expect(await stored(number.id)).toEqual([]);
});

it('needs sms_full', async () => {
  const number = await assignNumber(s, accountId);
  const read = await tokenWith(s, ['sms_read']);
  const res = await s.gql(SIMULATE, { sms_number_id: number.id, from: randomNumber(), text: 'hi' }, read);
  expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  expect(await stored(number.id)).toEqual([]);
});

describe('with a real provider', () => {
  let live: TestServer;
  beforeAll(async () => {
    live = await startTestServer({ env: TWILIO_ENV, roles: ['api'] });
  });
  afterAll(async () => {
    await live?.close();
  });

  it('refuses: 403, the provider delivers what the numbers receive', async () => {
    const number = await assignNumber(live, await accountIdOf(live));
    const res = await live.gql(SIMULATE, { sms_number_id: number.id, from: randomNumber(), text: 'hi' });
    expect(res.body.errors[0]).toMatchObject({
      message: 'Texts can be simulated in the SMS sandbox only (SMS_PROVIDER=capture): your provider delivers what your numbers receive.',
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await sql(live, 'select * from sms_inbound_messages where sms_number_id = ?', [number.id])).toEqual([]);
  });
});
