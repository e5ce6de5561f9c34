import { SmsWebhook, SmsWebhookEventType, type MailerSend } from 'mailersend';
import { accountIdOf } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNAUTHENTICATED, UNKNOWN_ID } from '../sdk/sdk.js';
import { assignNumber, type AssignedNumber } from './support.js';

/** The official client's ms.sms.webhook.* calls, end to end. */
let s: TestServer;
let r: Receiver;
let ms: MailerSend;
let other: MailerSend;
let number: AssignedNumber;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  r = await startReceiver();
  r.secretFor('*', s.app.services.config.WEBHOOK_TEST_SECRET);
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s, 'SDK SMS neighbour')).token);
  number = await assignNumber(s, await accountIdOf(s));
});
afterAll(async () => {
  await r?.close();
  await s?.close();
});

const KEYS = ['created_at', 'enabled', 'events', 'id', 'name', 'secret', 'sms_number', 'updated_at', 'url'];
let seq = 0;
const url = () => r.url(`/sdk-sms-${++seq}`);

describe('ms.sms.webhook', () => {
  it('create, list, single, update and delete', async () => {
    const hook = new SmsWebhook('SDK hook', url(), [SmsWebhookEventType.SENT, SmsWebhookEventType.DELIVERED], number.id).setEnabled(true);
    const made = await ms.sms.webhook.create(hook);
    expect(made.statusCode).toBe(201);
    const d = made.body.data;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toMatchObject({ name: 'SDK hook', url: hook.url, events: ['sms.sent', 'sms.delivered'], enabled: true, sms_number: number });
    expect(d.created_at).toMatch(ISO);
    expect(r.received(new URL(hook.url).pathname)[0]).toMatchObject({ verified: true });

    const list = await ms.sms.webhook.list({ sms_number_id: number.id, page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.body).toEqual({ data: [d] });

    const one = await ms.sms.webhook.single(d.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(d);

    const upd = await ms.sms.webhook.update(d.id, { name: 'Renamed', events: [SmsWebhookEventType.FAILED], enabled: false });
    expect(upd.statusCode).toBe(200);
    expect(upd.body.data).toMatchObject({ id: d.id, name: 'Renamed', events: ['sms.failed'], enabled: false, url: d.url, secret: d.secret });

    const del = await ms.sms.webhook.delete(d.id);
    expect(del.statusCode).toBe(204);
    expect((await failure(ms.sms.webhook.single(d.id))).status).toBe(404);
  });

  it('answers 422, 404 and 401 the way the client reads them', async () => {
    const bad = await failure(ms.sms.webhook.create(new SmsWebhook('x', url(), ['sms.nope' as SmsWebhookEventType], number.id)));
    expect(bad).toEqual({ status: 422, body: { message: INVALID, errors: { 'events.0': ['The selected events.0 is invalid.'] } } });
    const noName = await failure(ms.sms.webhook.create(new SmsWebhook('', url(), [SmsWebhookEventType.SENT], number.id)));
    expect(noName).toEqual({ status: 422, body: { message: INVALID, errors: { name: ['The name field is required.'] } } });
    const missing = await failure(ms.sms.webhook.single(UNKNOWN_ID));
    expect(missing).toEqual({ status: 404, body: NOT_FOUND });
    expect((await failure(ms.sms.webhook.update(UNKNOWN_ID, { name: 'x' }))).status).toBe(404);
    expect((await failure(ms.sms.webhook.delete(UNKNOWN_ID))).status).toBe(404);
    const anon = await failure(sdkFor(s, 'nope').sms.webhook.list({ sms_number_id: number.id }));
    expect(anon).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  it('another account gets 404 for this account\'s webhook and number', async () => {
    const made = await ms.sms.webhook.create(new SmsWebhook('Mine', url(), [SmsWebhookEventType.SENT], number.id));
    expect((await failure(other.sms.webhook.single(made.body.data.id))).status).toBe(404);
    expect((await failure(other.sms.webhook.list({ sms_number_id: number.id }))).status).toBe(404);
    expect((await failure(other.sms.webhook.delete(made.body.data.id))).status).toBe(404);
    expect((await ms.sms.webhook.single(made.body.data.id)).statusCode).toBe(200);
  });
});
