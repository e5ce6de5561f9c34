import { twilioSignature } from '../../src/modules/sms/sms.provider.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { activityOf, assignNumber, eventsOf, phone, settled, sql } from './support.js';
import { startFakeTwilio, type FakeTwilio } from './twilio-server.js';

/** SMS_PROVIDER=twilio against a local Twilio stand-in that reports back through signed callbacks. */
let s: TestServer;
let twilio: FakeTwilio;
let receiver: Receiver;
let from: { id: string; telephone_number: string };
/** The `sms.*` events of `from`, as its SMS webhook gets them. */
let events: EventTap;
beforeAll(async () => {
  twilio = await startFakeTwilio();
  receiver = await startReceiver();
  s = await startTestServer({ env: { ...twilio.env, WEBHOOK_ALLOW_PRIVATE: 'true' } });
  from = await assignNumber(s);
  events = await tapEvents(s, receiver, { smsNumberId: from.id });
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
  await twilio?.close();
});

async function sendTo(to: string, text = 'Hello from the test') {
  const res = await s.rest('POST', '/sms', { body: { from: from.telephone_number, to: [to], text } });
  expect(res.status).toBe(202);
  return res.headers.get('x-sms-message-id')!;
}

/** The text once the fake has sent it and every report it planned was answered. */
async function reported(to: string, reports: number) {
  const m = await twilio.waitFor(() => twilio.messages.find((x) => x.to === to));
  await twilio.waitFor(() => twilio.callbacks.filter((c) => c.sid === m.sid).length >= reports);
  const [sms] = await sql(s, 'select * from sms where provider_id = ?', [m.sid]);
  return { m, sms, answers: twilio.callbacks.filter((c) => c.sid === m.sid).map((c) => [c.status, c.answered]) };
}

/** Posts a status report as Twilio would, signed with `token` (the real one unless forged). */
function callback(params: Record<string, string>, opts: { token?: string; path?: string } = {}) {
  const path = opts.path ?? '/sms/provider/twilio/status';
  const publicUrl = `${s.app.services.config.PUBLIC_URL}${path}`;
  return fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(opts.token ?? twilio.token, publicUrl, params) },
    body: new URLSearchParams(params),
  });
}

describe('sending through Twilio', () => {
  it('posts From, To, Body and a StatusCallback with Basic auth; sent then delivered through signed callbacks', async () => {
    const to = phone();
    const id = await sendTo(to, 'Ünïcode? No: GSM 😀');
    const { m, sms, answers } = await reported(to, 2);
    expect(m).toMatchObject({ from: from.telephone_number, to, body: 'Ünïcode? No: GSM 😀' });
    expect(m.statusCallback).toBe(`${s.app.services.config.PUBLIC_URL}/sms/provider/twilio/status?sms_id=${sms.id}`);
    expect(answers).toEqual([['sent', 200], ['delivered', 200]]);
    expect(sms).toMatchObject({ message_id: id, status: 'delivered', error_type: null });
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'sent', 'delivered']);
    const got = await eventsOf(events, sms.id);
    expect(got.map((e) => e.type)).toEqual(['sms.sent', 'sms.delivered']);
    expect(got[1]).toMatchObject({ sms_number_id: from.id, data: { status: 'delivered', sms: { id: sms.id, status: 'delivered', segment_count: 1 } } });
  });

  it('a failed report (undelivered with an ErrorCode) fails the text with the error', async () => {
    const to = phone();
    twilio.plan(to, { reports: [{ status: 'sent' }, { status: 'undelivered', errorCode: '30003' }] });
    await sendTo(to);
    const { sms, answers } = await reported(to, 2);
    expect(answers).toEqual([['sent', 200], ['undelivered', 200]]);
    expect(sms).toMatchObject({ status: 'failed', error_type: '30003', error_description: 'Twilio error 30003' });
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'sent', 'failed']);
    const got = await eventsOf(events, sms.id);
    expect(got.map((e) => e.type)).toEqual(['sms.sent', 'sms.failed']);
    expect(got[1].data.sms).toMatchObject({ status: 'failed', error_type: '30003', error_description: 'Twilio error 30003' });
  });

  it('statuses only move forward: a late sent after delivered, and repeated reports, change nothing', async () => {
    const to = phone();
    twilio.plan(to, { reports: [{ status: 'delivered' }, { status: 'sent' }, { status: 'delivered' }, { status: 'failed', errorCode: '30008' }] });
    await sendTo(to);
    const { sms, answers } = await reported(to, 4);
    expect(answers.map((a) => a[1])).toEqual([200, 200, 200, 200]);
    expect(sms).toMatchObject({ status: 'delivered', error_type: null });
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'sent', 'delivered']);
    expect((await eventsOf(events, sms.id)).map((e) => e.type)).toEqual(['sms.sent', 'sms.delivered']);
  });

  it('a send Twilio refuses for good (400) fails at once with its error code, without sms.sent', async () => {
    const to = phone();
    twilio.plan(to, { refuse: { status: 400, code: 21211, message: `The 'To' number ${to} is not a valid phone number.` } });
    const id = await sendTo(to);
    const [sms] = await settled(s, id);
    expect(sms).toMatchObject({ status: 'failed', error_type: '21211', error_description: `The 'To' number ${to} is not a valid phone number.`, provider_id: null });
    expect(twilio.refused.get(to)).toBe(1);
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'failed']);
    expect((await eventsOf(events, sms.id)).map((e) => e.type)).toEqual(['sms.failed']);
  });

  it('a send Twilio cannot take now (503) is retried by the job, then sent once', async () => {
    const to = phone();
    twilio.plan(to, { refuse: { status: 503, code: 20503, message: 'Service unavailable', times: 1 } });
    const id = await sendTo(to);
    const { sms } = await reported(to, 2);
    expect(twilio.refused.get(to)).toBe(1);
    expect(twilio.messages.filter((m) => m.to === to)).toHaveLength(1);
    expect(sms).toMatchObject({ message_id: id, status: 'delivered' });
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'sent', 'delivered']);
  }, 60_000);
});

describe('POST /sms/provider/twilio/status', () => {
  it('answers 403 to a forged or unsigned report and changes nothing', async () => {
    const to = phone();
    twilio.plan(to, { reports: [{ status: 'sent' }] });
    await sendTo(to);
    const { m, sms } = await reported(to, 1);
    expect(sms.status).toBe('sent');
    const params = { MessageSid: m.sid, MessageStatus: 'delivered', AccountSid: twilio.sid };
    const forged = await callback(params, { token: 'not-the-auth-token' });
    expect(forged.status).toBe(403);
    const unsigned = await fetch(`${s.url}/sms/provider/twilio/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    expect(unsigned.status).toBe(403);
    // Signed for another URL (a replay against a different path or query) does not verify either.
    const replay = await fetch(`${s.url}/sms/provider/twilio/status?sms_id=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(twilio.token, `${s.app.services.config.PUBLIC_URL}/sms/provider/twilio/status`, params) },
      body: new URLSearchParams(params),
    });
    expect(replay.status).toBe(403);
    expect((await sql(s, 'select status from sms where id = ?', [sms.id]))[0].status).toBe('sent');

    // The genuine report still works.
    expect((await callback(params)).status).toBe(200);
    expect((await sql(s, 'select status from sms where id = ?', [sms.id]))[0].status).toBe('delivered');
  });

  it('answers 200 to a signed report about an unknown message and ignores it', async () => {
    const before = await events.settle();
    const res = await callback({ MessageSid: 'SM00000000000000000000000000000000', MessageStatus: 'delivered' });
    expect(res.status).toBe(200);
    // No sms.* event comes of it: once every event written is delivered, the number's webhook has got nothing new.
    expect(await events.settle()).toEqual(before);
  });

  it('answers 404 for a provider that is not the configured one', async () => {
    const res = await callback({ MessageSid: 'SMx', MessageStatus: 'sent' }, { path: '/sms/provider/capture/status' });
    expect(res.status).toBe(404);
  });
});
