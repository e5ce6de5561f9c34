import { accountIdOf } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { attemptsOf, deliveriesOf, driveUntil, makeDue } from '../webhooks/engine-support.js';
import { assignNumber, randomNumber, sql, targetOf } from './support.js';
import { twilioSignature } from '../../src/modules/sms/sms.provider.js';
import { EMPTY_TWIML, INBOUND_PATH, TWILIO_AUTH_TOKEN, TWILIO_ENV, inboundFields, messageSid, postInbound } from './twilio.js';

let s: TestServer;
let receiver: Receiver;
let accountId: string;

beforeAll(async () => {
  // No worker role: the engine moves only when a test drives it, so states are seen between steps.
  s = await startTestServer({ env: TWILIO_ENV, roles: ['api'] });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

let seq = 0;

/** A route of `numberId` forwarding to a fresh receiver path, whose requests the receiver verifies with the route's secret. */
async function route(numberId: string, extra: Record<string, unknown> = {}, token?: string) {
  const path = `/fwd/${++seq}`;
  const res = await s.rest('POST', '/sms-inbounds', { token, body: { sms_number_id: numberId, name: `route ${seq}`, forward_url: receiver.url(path), ...extra } });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  receiver.secretFor(path, res.body.data.secret);
  return { ...res.body.data, path, webhookId: (await targetOf(s, res.body.data.id)).id as string };
}

async function allSettled(webhookIds: string[]): Promise<boolean> {
  const [row] = await sql(s, `select count(*)::int as n from webhook_deliveries where webhook_id in (select jsonb_array_elements_text(?::jsonb)) and state = 'pending'`, [
    JSON.stringify(webhookIds),
  ]);
  return row.n === 0;
}

const stored = (sid: string) => sql(s, 'select * from sms_inbound_messages where provider_id = ?', [sid]);

describe('POST /sms/provider/twilio/inbound', () => {
  it('stores the text, answers empty TwiML, and forwards it signed to the route', async () => {
    const number = await assignNumber(s, accountId);
    const r = await route(number.id);
    const from = randomNumber();
    const sid = messageSid();
    const res = await postInbound(s, inboundFields(number.telephone_number, from, 'Hello there', sid));
    expect(res).toEqual({ status: 200, type: 'text/xml; charset=utf-8', text: EMPTY_TWIML });

    const [msg] = await stored(sid);
    expect(msg).toMatchObject({ account_id: accountId, sms_number_id: number.id, from, to: number.telephone_number, text: 'Hello there' });
    const [delivery] = await deliveriesOf(s, r.webhookId);
    expect(delivery).toMatchObject({ event_id: msg.id, type: 'sms.inbound', state: 'pending', attempts: 0 });
    expect(delivery.id).toMatch(/^msg_[0-9a-z]{24}$/);

    await driveUntil(s, () => allSettled([r.webhookId]));
    const [got] = receiver.received(r.path);
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(got.verified).toBe(true);
    expect(got.secret).toBe(r.secret);
    expect(got.headers['webhook-id']).toBe(delivery.id);
    expect(got.raw).toBe(delivery.body);
    expect(got.json).toEqual({
      type: 'sms.inbound',
      sms_inbound_id: r.id,
      sms_number_id: number.id,
      created_at: expect.stringMatching(ISO),
      data: { id: msg.id, from, to: number.telephone_number, text: 'Hello there', created_at: expect.stringMatching(ISO) },
    });
    expect(Object.keys(got.json)).toEqual(['type', 'sms_inbound_id', 'sms_number_id', 'created_at', 'data']);
    expect((await deliveriesOf(s, r.webhookId))[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
  });

  it('refuses a request Twilio did not sign: 403 and nothing stored', async () => {
    const number = await assignNumber(s, accountId);
    const fields = inboundFields(number.telephone_number, randomNumber(), 'forged');
    const cases = [
      { signature: null },
      { signature: 'bm90IGEgc2lnbmF0dXJl' },
      { signedFields: { ...fields, Body: 'what was signed' } },
      // Signed over the socket address instead of the public URL Twilio was given.
      { signedUrl: `${s.url}${INBOUND_PATH}` },
      // Signed with another account's auth token.
      { signature: twilioSignature(`${TWILIO_AUTH_TOKEN}x`, `${s.app.services.config.PUBLIC_URL}${INBOUND_PATH}`, fields) },
    ];
    for (const opts of cases) {
      const res = await postInbound(s, fields, opts);
      expect(res.status).toBe(403);
    }
    expect(await stored(fields.MessageSid)).toHaveLength(0);
    // The same text, signed properly, is taken: the failures above were the signature's.
    expect((await postInbound(s, fields)).status).toBe(200);
    expect(await stored(fields.MessageSid)).toHaveLength(1);
  });

  it('answers 200 for a number no account has, and stores nothing', async () => {
    const fields = inboundFields(randomNumber(), randomNumber(), 'STOP');
    const res = await postInbound(s, fields);
    expect(res).toEqual({ status: 200, type: 'text/xml; charset=utf-8', text: EMPTY_TWIML });
    expect(await stored(fields.MessageSid)).toHaveLength(0);
    expect(await sql(s, 'select * from sms_recipients where number = ?', [fields.From])).toHaveLength(0);
  });

  it('stores a text Twilio sends again (same MessageSid) once, and forwards it once', async () => {
    const number = await assignNumber(s, accountId);
    const r = await route(number.id);
    const fields = inboundFields(number.telephone_number, randomNumber(), 'twice');
    const first = await postInbound(s, fields);
    const second = await postInbound(s, fields);
    expect(second).toEqual(first);
    expect(second.text).toBe(EMPTY_TWIML);
    expect(await stored(fields.MessageSid)).toHaveLength(1);
    expect(await deliveriesOf(s, r.webhookId)).toHaveLength(1);
  });

  it('forwards nothing to a disabled route, or to one whose target the engine paused', async () => {
    const number = await assignNumber(s, accountId);
    const off = await route(number.id, { enabled: false });
    const paused = await route(number.id);
    await sql(s, `update webhooks set enabled = false, paused_reason = 'failures', paused_at = now() where id = ?`, [paused.webhookId]);
    const on = await route(number.id);
    await postInbound(s, inboundFields(number.telephone_number, randomNumber(), 'hi'));
    expect(await deliveriesOf(s, off.webhookId)).toHaveLength(0);
    expect(await deliveriesOf(s, paused.webhookId)).toHaveLength(0);
    expect(await deliveriesOf(s, on.webhookId)).toHaveLength(1);
  });

  it('forwards only to routes of the number the text came to', async () => {
    const a = await assignNumber(s, accountId);
    const b = await assignNumber(s, accountId);
    const ra = await route(a.id);
    const rb = await route(b.id);
    await postInbound(s, inboundFields(a.telephone_number, randomNumber(), 'for a'));
    expect(await deliveriesOf(s, ra.webhookId)).toHaveLength(1);
    expect(await deliveriesOf(s, rb.webhookId)).toHaveLength(0);
  });

  it('retries a forward the receiver fails (500, then 200), signed the same way each time', async () => {
    const number = await assignNumber(s, accountId);
    const r = await route(number.id);
    receiver.respond(r.path, { status: [500, 200] });
    await postInbound(s, inboundFields(number.telephone_number, randomNumber(), 'retry me'));
    const [d] = await deliveriesOf(s, r.webhookId);
    await driveUntil(s, async () => (await deliveriesOf(s, r.webhookId))[0].attempts === 1);
    expect((await deliveriesOf(s, r.webhookId))[0]).toMatchObject({ state: 'pending', last_status: 500 });
    await makeDue(s, d.id);
    await driveUntil(s, () => allSettled([r.webhookId]));
    expect((await deliveriesOf(s, r.webhookId))[0]).toMatchObject({ state: 'delivered', attempts: 2, last_status: 200 });
    const got = receiver.received(r.path);
    expect(got.map((g) => g.answered)).toEqual([500, 200]);
    expect(got.every((g) => g.verified && g.headers['webhook-id'] === d.id && g.raw === d.body)).toBe(true);
    const attempts = await attemptsOf(s, d.id);
    expect(attempts.map((a: any) => [a.success, a.status])).toEqual([[false, 500], [true, 200]]);
  });
});

describe('STOP and START', () => {
  const statusOf = async (account: string, from: string) =>
    (await sql(s, 'select status from sms_recipients where account_id = ? and number = ?', [account, from])).map((r: any) => r.status);

  it('opts the sender out with STOP and back in with START, for that account only', async () => {
    const number = await assignNumber(s, accountId);
    const other = await createAccount(s, 'Other SMS account');
    const theirs = await assignNumber(s, other.id);
    const from = randomNumber();
    await postInbound(s, inboundFields(theirs.telephone_number, from, 'hello'));
    expect(await statusOf(other.id, from)).toEqual(['active']);

    await postInbound(s, inboundFields(number.telephone_number, from, 'STOP'));
    expect(await statusOf(accountId, from)).toEqual(['opt_out']);
    expect(await statusOf(other.id, from)).toEqual(['active']);
    // An ordinary text does not undo an opt-out.
    await postInbound(s, inboundFields(number.telephone_number, from, 'why did I stop?'));
    expect(await statusOf(accountId, from)).toEqual(['opt_out']);
    await postInbound(s, inboundFields(number.telephone_number, from, ' start '));
    expect(await statusOf(accountId, from)).toEqual(['active']);
  });

  it.each([
    ['stop', 'yes'],
    ['StopAll', 'UNSTOP'],
    ['UNSUBSCRIBE', 'Start'],
    ['cancel', 'YES '],
    ['End', 'unstop'],
    [' quit', 'START'],
  ])('%j opts out, and %j opts back in', async (out, back) => {
    const number = await assignNumber(s, accountId);
    const from = randomNumber();
    await postInbound(s, inboundFields(number.telephone_number, from, out));
    expect(await statusOf(accountId, from)).toEqual(['opt_out']);
    await postInbound(s, inboundFields(number.telephone_number, from, back));
    expect(await statusOf(accountId, from)).toEqual(['active']);
  });

  it('takes a keyword only as the whole text, and still forwards it to routes', async () => {
    const number = await assignNumber(s, accountId);
    const r = await route(number.id);
    const from = randomNumber();
    await postInbound(s, inboundFields(number.telephone_number, from, 'please stop sending'));
    expect(await statusOf(accountId, from)).toEqual(['active']);
    await postInbound(s, inboundFields(number.telephone_number, from, 'STOP'));
    expect(await statusOf(accountId, from)).toEqual(['opt_out']);
    expect(await deliveriesOf(s, r.webhookId)).toHaveLength(2);
  });
});
