import { SmsComparerType, SmsInbound, type MailerSend } from 'mailersend';
import { accountIdOf } from '../support/factories.js';
import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { INVALID, NOT_FOUND, UNKNOWN_ID, failure, sdkFor } from '../sdk/sdk.js';
import { ROUTE_KEYS, assignNumber } from './support.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let number: { id: string; telephone_number: string };

beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s, 'SDK SMS other')).token);
  number = await assignNumber(s, await accountIdOf(s));
});
afterAll(async () => {
  await s?.close();
});

describe('ms.sms.inbound', () => {
  it('create, single, list, update and delete in the SDK shape', async () => {
    const created = await ms.sms.inbound.create(
      new SmsInbound('From the SDK', number.id, 'https://sdk.example.com/sms', true, { comparer: SmsComparerType.STARTS_WITH, value: 'JOIN' }),
    );
    expect(created.statusCode).toBe(201);
    const d = created.body.data;
    expect(Object.keys(d).sort()).toEqual(ROUTE_KEYS);
    expect(d).toMatchObject({
      name: 'From the SDK',
      filter: { comparer: 'starts-with', value: 'JOIN' },
      forward_url: 'https://sdk.example.com/sms',
      enabled: true,
    });
    expect(d.secret).toEqual(expect.any(String));
    expect(d.created_at).toMatch(ISO);

    const single = await ms.sms.inbound.single(d.id);
    expect(single.statusCode).toBe(200);
    expect(single.body.data).toEqual({ ...d, sms_number: { id: number.id, telephone_number: number.telephone_number, paused: false, created_at: expect.stringMatching(ISO) } });

    const list = await ms.sms.inbound.list({ sms_number_id: number.id, enabled: true, page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data).toContainEqual(d);
    const disabled = await ms.sms.inbound.list({ sms_number_id: number.id, enabled: false });
    expect(disabled.body.data.map((r: { id: string }) => r.id)).not.toContain(d.id);

    const updated = await ms.sms.inbound.update(d.id, { name: 'Renamed', enabled: false, filter: { comparer: SmsComparerType.NOT_EQUAL, value: 'x' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.body.data).toEqual({ ...d, name: 'Renamed', enabled: false, filter: { comparer: 'not-equal', value: 'x' } });

    const deleted = await ms.sms.inbound.delete(d.id);
    expect(deleted.statusCode).toBe(204);
    expect(await failure(ms.sms.inbound.single(d.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('surfaces 422, 404 and cross-account answers', async () => {
    const bad = await failure(ms.sms.inbound.create(new SmsInbound('x', number.id, 'not a url', true, { comparer: 'like' as SmsComparerType, value: 'a' })));
    expect(bad).toEqual({
      status: 422,
      body: { message: INVALID, errors: { forward_url: ['The forward url format is invalid.'], 'filter.comparer': ['The selected filter.comparer is invalid.'] } },
    });
    expect(await failure(ms.sms.inbound.single(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await failure(ms.sms.inbound.update(UNKNOWN_ID, { name: 'x' }))).status).toBe(404);
    expect((await failure(ms.sms.inbound.delete(UNKNOWN_ID))).status).toBe(404);

    const ours = (await ms.sms.inbound.create(new SmsInbound('Ours', number.id, 'https://sdk.example.com/ours'))).body.data;
    expect(await failure(other.sms.inbound.single(ours.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await failure(other.sms.inbound.list({ sms_number_id: number.id }))).status).toBe(404);
    const theirs = (await other.sms.inbound.list()).body.data;
    expect(theirs).toEqual([]);
  });
});
