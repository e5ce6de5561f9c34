import { twilioSignature } from '../../src/modules/sms/sms.provider.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createSmsWebhook } from '../sms-webhooks/support.js';
import { assignNumber, phone, settled, sql } from './support.js';
import { startFakeTwilio, type FakeTwilio } from './twilio-server.js';

/**
 * The SMS parts together, through public surfaces only: POST /v1/sms through the Twilio
 * stand-in, its signed status callbacks, the sms.* webhooks at a local receiver, and STOP/START
 * texts coming in from Twilio deciding who later sends reach.
 */
let s: TestServer;
let twilio: FakeTwilio;
let receiver: Receiver;
let from: { id: string; telephone_number: string };
let hook: { id: string; secret: string };

beforeAll(async () => {
  twilio = await startFakeTwilio();
  receiver = await startReceiver();
  s = await startTestServer({ env: { ...twilio.env, WEBHOOK_ALLOW_PRIVATE: 'true' } });
  from = await assignNumber(s);
  hook = await createSmsWebhook(s, receiver, { smsNumberId: from.id, events: ['sms.sent', 'sms.delivered', 'sms.failed'], path: '/sms-events' });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await twilio?.close();
  await receiver?.close();
});

const send = async (to: string, text: string) => {
  const res = await s.rest('POST', '/sms', { body: { from: from.telephone_number, to: [to], text } });
  expect(res.status).toBe(202);
  return res.headers.get('x-sms-message-id')!;
};

/** Deliveries run side by side, so they may arrive in any order: put back in the order of the events. */
const eventsFor = (to: string) =>
  receiver
    .received('/sms-events')
    .filter((r) => r.json?.data?.to === to)
    .sort((a, b) => a.json.created_at.localeCompare(b.json.created_at));

/** A text arriving from Twilio, signed as Twilio signs it. */
function inbound(sender: string, body: string) {
  const path = '/sms/provider/twilio/inbound';
  const params = { MessageSid: `SM${Date.now()}${Math.random().toString(16).slice(2)}`, From: sender, To: from.telephone_number, Body: body };
  return fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(twilio.token, `${s.app.services.config.PUBLIC_URL}${path}`, params),
    },
    body: new URLSearchParams(params),
  });
}

it('a delivered text fires sms.sent and sms.delivered, a failed one sms.failed, signed for the SMS webhook', async () => {
  const ok = phone();
  const bad = phone();
  twilio.plan(bad, { reports: [{ status: 'sent' }, { status: 'failed', errorCode: '30006' }] });
  const okId = await send(ok, 'Your code is 4242');
  await send(bad, 'Your code is 4343');
  await receiver.waitFor(() => eventsFor(ok).length >= 2 && eventsFor(bad).length >= 2, 30_000);

  expect(eventsFor(ok).map((r) => r.json.type)).toEqual(['sms.sent', 'sms.delivered']);
  expect(eventsFor(bad).map((r) => r.json.type)).toEqual(['sms.sent', 'sms.failed']);
  for (const r of [...eventsFor(ok), ...eventsFor(bad)]) {
    expect(r.verified).toBe(true);
    expect(r.secret).toBe(hook.secret);
    expect(r.json).toMatchObject({ sms_number_id: from.id, sms_webhook_id: hook.id, url: receiver.url('/sms-events') });
  }
  const delivered = eventsFor(ok)[1].json.data;
  expect(delivered).toMatchObject({ from: from.telephone_number, to: ok, status: 'delivered', sms_message_id: okId });
  expect(delivered.sms).toMatchObject({ from: from.telephone_number, to: ok, text: 'Your code is 4242', status: 'delivered', segment_count: 1 });
  expect(delivered.sms.recipient).toMatchObject({ number: ok, status: 'active' });
  const failed = eventsFor(bad)[1].json.data.sms;
  expect(failed).toMatchObject({ status: 'failed', error_type: '30006' });
});

it('STOP from a recipient skips later sends to them; START lets them through again', async () => {
  const person = phone();
  expect((await inbound(person, 'stop')).status).toBe(200);
  const [row] = await sql(s, 'select id, status from sms_recipients where number = ?', [person]);
  expect(row.status).toBe('opt_out');
  const recipient = await s.rest('GET', `/sms-recipients/${row.id}`);
  expect(recipient.body.data).toMatchObject({ number: person, status: 'opt_out' });

  const skippedId = await send(person, 'You will not get this');
  const [skipped] = await settled(s, skippedId);
  expect(skipped.status).toBe('skipped');
  expect(twilio.messages.some((m) => m.to === person)).toBe(false);

  expect((await inbound(person, ' START ')).status).toBe(200);
  expect((await s.rest('GET', `/sms-recipients/${row.id}`)).body.data.status).toBe('active');
  await send(person, 'Welcome back');
  await twilio.waitFor(() => twilio.messages.find((m) => m.to === person && m.body === 'Welcome back'));
  await receiver.waitFor(() => eventsFor(person).some((r) => r.json.type === 'sms.delivered'), 30_000);
  expect(eventsFor(person).map((r) => r.json.data.sms.text)).not.toContain('You will not get this');
});
