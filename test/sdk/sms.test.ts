import { SMSParams, SMSPersonalization, SmsActivityStatusType, type MailerSend } from 'mailersend';
import { eventually, assignNumber, phone, sql } from '../sms/support.js';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNAUTHENTICATED, UNKNOWN_ID } from './sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let otherToken: string;
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  otherToken = (await createAccount(s)).token;
  other = sdkFor(s, otherToken);
});
afterAll(async () => {
  await s?.close();
});

/** Sends through the SDK and waits until every text reached a final status. */
async function sdkSend(from: string, to: string[], text: string, personalization: SMSPersonalization[] = []) {
  const res = await ms.sms.send(new SMSParams({ from, to, text, personalization }));
  const id = res.headers['x-sms-message-id'];
  await eventually(async () => {
    const rows = await sql(s, 'select status from sms where message_id = ?', [id]);
    return rows.length === to.length && rows.every((r) => r.status !== 'queued');
  });
  return { res, id };
}

describe('ms.sms', () => {
  it('send answers 202 with x-sms-message-id; message.list/single show it', async () => {
    const n = await assignNumber(s);
    const [a, b] = [phone(), phone()];
    const { res, id } = await sdkSend(n.telephone_number, [a, b], 'Hi {{name}}', [new SMSPersonalization(a, { name: 'SDK' })]);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    expect(id).toEqual(expect.any(String));

    const list = await ms.sms.message.list({ page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data[0]).toEqual({ id, from: n.telephone_number, to: [a, b], text: 'Hi {{name}}', paused: false, created_at: expect.stringMatching(ISO) });
    const one = await ms.sms.message.single(id);
    expect(one.body.data.sms.map((x: { to: string; text: string; status: string }) => [x.to, x.text, x.status])).toEqual([
      [a, 'Hi SDK', 'delivered'],
      [b, 'Hi ', 'delivered'],
    ]);
    expect(await failure(ms.sms.message.single(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.sms.message.single(id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('send answers 422 with the failing fields', async () => {
    const n = await assignNumber(s);
    const f = await failure(ms.sms.send(new SMSParams({ from: n.telephone_number, to: ['12345'], text: 'x'.repeat(2049) })));
    expect(f).toEqual({
      status: 422,
      body: {
        message: INVALID,
        errors: {
          text: ['The text may not be greater than 2048 characters.'],
        },
      },
    });
    const g = await failure(ms.sms.send(new SMSParams({ from: '+15550000001', to: ['12345'], text: 'x' })));
    expect(g.body.errors).toEqual({
      from: ['The selected from is invalid.'],
      'to.0': ['The to.0 must be a phone number in E.164 format (e.g. +15551234567).'],
    });
  });

  it('number.list/single/update/delete', async () => {
    const n = await assignNumber(s);
    const list = await ms.sms.number.list({ paused: false, limit: 100 });
    expect(list.body.data).toContainEqual({ id: n.id, telephone_number: n.telephone_number, paused: false, created_at: expect.stringMatching(ISO) });
    expect((await ms.sms.number.single(n.id)).body.data.id).toBe(n.id);
    const upd = await ms.sms.number.update(n.id, true);
    expect(upd.statusCode).toBe(200);
    expect(upd.body.data).toMatchObject({ id: n.id, paused: true });
    expect((await ms.sms.number.list({ paused: true })).body.data.map((x: { id: string }) => x.id)).toContain(n.id);
    const del = await ms.sms.number.delete(n.id);
    expect(del.statusCode).toBe(204);
    expect(await failure(ms.sms.number.single(n.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.sms.number.update(UNKNOWN_ID, true))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(sdkFor(s, 'mlsn.wrong').sms.number.list())).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  it('activity.list filters by number, status and dates', async () => {
    const n = await assignNumber(s);
    const to = phone();
    const since = Math.floor(Date.now() / 1000);
    await sdkSend(n.telephone_number, [to], 'Activity');
    const res = await ms.sms.activity.list({ sms_number_id: n.id, status: [SmsActivityStatusType.DELIVERED, SmsActivityStatusType.SENT], date_from: since, date_to: since + 3600, page: 1, limit: 10 });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.map((r: { status: string }) => r.status)).toEqual(['delivered', 'sent']);
    expect(res.body.data[0]).toEqual({ from: n.telephone_number, to, created_at: expect.stringMatching(ISO), content: 'Activity', status: 'delivered', sms_message_id: expect.any(String) });
    expect((await failure(ms.sms.activity.list({ date_from: 20, date_to: 10 }))).status).toBe(422);
  });

  it('recipient.list/single/update', async () => {
    const n = await assignNumber(s);
    const to = phone();
    await sdkSend(n.telephone_number, [to], 'Recipient');
    const list = await ms.sms.recipient.list({ sms_number_id: n.id, status: 'active' });
    expect(list.body.data).toEqual([{ id: expect.any(String), number: to, status: 'active', created_at: expect.stringMatching(ISO) }]);
    const id = list.body.data[0].id;
    const one = await ms.sms.recipient.single(id);
    expect(one.body.data).toMatchObject({ id, number: to, status: 'active', sms: [expect.objectContaining({ to, text: 'Recipient' })] });
    const upd = await ms.sms.recipient.update(id, 'opt_out');
    expect(upd.body.data).toMatchObject({ id, status: 'opt_out' });
    expect((await ms.sms.recipient.list({ status: 'opt_out' })).body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect((await failure(ms.sms.recipient.update(id, 'nope' as never))).status).toBe(422);
    expect(await failure(other.sms.recipient.single(id))).toEqual({ status: 404, body: NOT_FOUND });
    // An opted-out number is skipped by the next send.
    const { id: mid } = await sdkSend(n.telephone_number, [to], 'Skipped');
    expect((await ms.sms.message.single(mid)).body.data.sms[0].status).toBe('skipped');
  });
});
