import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { activityOf, assignNumber, eventsOf, INVALID, phone, settled, sql } from './support.js';

/** The default provider (capture): every text is sent and delivered at once, offline. */
let s: TestServer;
let receiver: Receiver;
let other: { id: string; token: string };
let from: { id: string; telephone_number: string };
/** The `sms.*` events of `from`, as its SMS webhook gets them. */
let events: EventTap;
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  other = await createAccount(s);
  from = await assignNumber(s);
  events = await tapEvents(s, receiver, { smsNumberId: from.id });
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const send = (body: unknown, token?: string) => s.rest('POST', '/sms', { body, token });

describe('POST /v1/sms', () => {
  it('answers 202 with an empty body and x-sms-message-id; stores one personalized text per recipient', async () => {
    const [a, b] = [phone(), phone()];
    const text = 'Hi {{name}}, your code is {{ code }}.';
    const res = await send({ from: from.telephone_number, to: [a, b], text, personalization: [{ phone_number: a, data: { name: 'Ann', code: 4711 } }] });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const id = res.headers.get('x-sms-message-id');
    expect(id).toEqual(expect.any(String));

    const [message] = await sql(s, 'select * from sms_messages where id = ?', [id]);
    expect(message).toMatchObject({ from: from.telephone_number, to: [a, b], text, sms_number_id: from.id });
    const rows = await settled(s, id!);
    const byTo = Object.fromEntries(rows.map((r) => [r.to, r]));
    expect(byTo[a]).toMatchObject({ text: 'Hi Ann, your code is 4711.', segment_count: 1, from: from.telephone_number, status: 'delivered' });
    // No data for b: the variables render empty.
    expect(byTo[b].text).toBe('Hi , your code is .');
    expect(byTo[a].provider_id).toMatch(/^cap_/);
  });

  it('records queued, sent and delivered activity and sms.sent and sms.delivered events (capture provider)', async () => {
    const to = phone();
    const res = await send({ from: from.telephone_number, to: [to], text: 'Events €' });
    const [sms] = await settled(s, res.headers.get('x-sms-message-id')!);
    expect(await activityOf(s, sms.id)).toEqual(['queued', 'sent', 'delivered']);
    const got = await eventsOf(events, sms.id);
    expect(got.map((e) => e.type)).toEqual(['sms.sent', 'sms.delivered']);
    const [recipient] = await sql(s, 'select * from sms_recipients where number = ?', [to]);
    const sent = got[0];
    expect(sent.sms_number_id).toBe(from.id);
    expect(sent.data).toEqual({
      from: from.telephone_number,
      to,
      created_at: expect.stringMatching(ISO),
      status: 'sent',
      sms_message_id: res.headers.get('x-sms-message-id'),
      sms: {
        id: sms.id,
        from: from.telephone_number,
        to,
        text: 'Events €',
        status: 'sent',
        segment_count: 1,
        error_type: null,
        error_description: null,
        created_at: expect.stringMatching(ISO),
        recipient: { id: recipient.id, number: to, status: 'active', created_at: expect.stringMatching(ISO) },
      },
    });
    expect(got[1].sms_number_id).toBe(from.id);
    expect(got[1].data.status).toBe('delivered');
    expect(got[1].data.sms.status).toBe('delivered');
  });

  it('counts segments on the personalized text (GSM-7 and UCS-2)', async () => {
    const [a, b, c] = [phone(), phone(), phone()];
    const res = await send({
      from: from.telephone_number,
      to: [a, b, c],
      text: '{{body}}',
      personalization: [
        { phone_number: a, data: { body: 'x'.repeat(161) } },
        { phone_number: b, data: { body: 'ж'.repeat(71) } },
        { phone_number: c, data: { body: '{'.repeat(81) } },
      ],
    });
    const rows = await settled(s, res.headers.get('x-sms-message-id')!);
    const count = Object.fromEntries(rows.map((r) => [r.to, r.segment_count]));
    expect(count).toEqual({ [a]: 2, [b]: 2, [c]: 2 });
  });

  it('skips an opted-out recipient: no provider call, no activity, no events', async () => {
    const [out, ok] = [phone(), phone()];
    const first = await send({ from: from.telephone_number, to: [out], text: 'before' });
    await settled(s, first.headers.get('x-sms-message-id')!);
    const [rec] = await sql(s, 'select id from sms_recipients where number = ?', [out]);
    expect((await s.rest('PUT', `/sms-recipients/${rec.id}`, { body: { status: 'opt_out' } })).status).toBe(200);

    const res = await send({ from: from.telephone_number, to: [out, ok], text: 'after' });
    expect(res.status).toBe(202);
    const rows = await settled(s, res.headers.get('x-sms-message-id')!, (st) => st === 'delivered' || st === 'skipped');
    const skipped = rows.find((r) => r.to === out);
    expect(skipped).toMatchObject({ status: 'skipped', provider_id: null });
    expect(rows.find((r) => r.to === ok).status).toBe('delivered');
    // The job has run (the other text was delivered): the skipped one stays untouched.
    expect(await activityOf(s, skipped.id)).toEqual([]);
    expect(await eventsOf(events, skipped.id)).toEqual([]);
  });

  it('answers 422 for every rule, each on its field', async () => {
    const expect422 = async (body: unknown, errors: Record<string, string[]>) => {
      const res = await send(body);
      expect([res.status, res.body]).toEqual([422, { message: INVALID, errors }]);
    };
    const to = phone();
    await expect422({}, {
      from: ['The from field is required.'],
      to: ['The to field is required.'],
      text: ['The text field is required.'],
    });
    await expect422({ from: from.telephone_number, to: [], text: 'x' }, { to: ['The to field is required.'] });
    await expect422({ from: from.telephone_number, to, text: 'x' }, { to: ['The to must be an array.'] });
    await expect422({ from: from.telephone_number, to: [to], text: 5 }, { text: ['The text must be a string.'] });
    await expect422({ from: from.telephone_number, to: [to], text: '   ' }, { text: ['The text field is required.'] });
    await expect422({ from: from.telephone_number, to: [to], text: 'x'.repeat(2049) }, { text: ['The text may not be greater than 2048 characters.'] });
    await expect422({ from: from.telephone_number, to: Array.from({ length: 51 }, () => phone()), text: 'x' }, { to: ['The to may not have more than 50 items.'] });
    await expect422({ from: from.telephone_number, to: [to, '5551234', to, '+0123456789'], text: 'x' }, {
      'to.1': ['The to.1 must be a phone number in E.164 format (e.g. +15551234567).'],
      'to.2': ['The to.2 field has a duplicate value.'],
      'to.3': ['The to.3 must be a phone number in E.164 format (e.g. +15551234567).'],
    });
    await expect422({ from: '+15550000000', to: [to], text: 'x' }, { from: ['The selected from is invalid.'] });
    await expect422({ from: from.telephone_number, to: [to], text: 'x', personalization: [{ phone_number: 'me', data: {} }] }, {
      'personalization.0.phone_number': ['The personalization.0.phone_number must be a phone number in E.164 format (e.g. +15551234567).'],
    });
    await expect422({ from: from.telephone_number, to: [to], text: 'x', personalization: [{ phone_number: to }] }, {
      'personalization.0.data': ['The personalization.0.data field is required.'],
    });
    // Nothing of a refused send is stored.
    expect(await sql(s, 'select id from sms where "to" = ?', [to])).toEqual([]);
  });

  it('refuses a paused number with 422 on from, and another account\'s number as unknown', async () => {
    const paused = await assignNumber(s);
    await s.rest('PUT', `/sms-numbers/${paused.id}`, { body: { paused: true } });
    const res = await send({ from: paused.telephone_number, to: [phone()], text: 'x' });
    expect([res.status, res.body]).toEqual([422, { message: INVALID, errors: { from: ['The from number is paused: unpause it to send from it.'] } }]);
    const theirs = await assignNumber(s, other.token);
    const cross = await send({ from: theirs.telephone_number, to: [phone()], text: 'x' });
    expect(cross.body.errors).toEqual({ from: ['The selected from is invalid.'] });
    expect((await send({ from: theirs.telephone_number, to: [phone()], text: 'x' }, other.token)).status).toBe(202);
  });

  it('answers 401 without a token and 403 without sms_full', async () => {
    const body = { from: from.telephone_number, to: [phone()], text: 'x' };
    expect((await send(body, null as never)).status).toBe(401);
    const read = await tokenWith(s, ['sms_read']);
    expect(await send(body, read).then((r) => [r.status, r.body])).toEqual([403, { message: 'This token does not have the scope this action needs.' }]);
    expect((await send(body, await tokenWith(s, ['sms_full']))).status).toBe(202);
  });

  it('sends through GraphQL too', async () => {
    const to = phone();
    const res = await s.gql(
      'mutation($f: String!, $t: [String!]!, $x: String!, $p: [SmsPersonalizationInput!]) { send_sms(from: $f, to: $t, text: $x, personalization: $p) { sms_message_id } }',
      { f: from.telephone_number, t: [to], x: 'Hello {{who}}', p: [{ phone_number: to, data: { who: 'GraphQL' } }] },
    );
    const id = res.body.data.send_sms.sms_message_id;
    const [row] = await settled(s, id);
    expect(row).toMatchObject({ to, text: 'Hello GraphQL', status: 'delivered' });
    const bad = await s.gql('mutation($f: String!) { send_sms(from: $f, to: ["1"], text: "x") { sms_message_id } }', { f: from.telephone_number });
    expect(bad.body.errors[0]).toMatchObject({ message: INVALID, extensions: { code: 'VALIDATION_FAILED', errors: { 'to.0': [expect.any(String)] } } });
  });
});

describe('status reports with the capture provider', () => {
  it('refuses every report: capture is never called back (403), and other provider names are 404', async () => {
    const post = (path: string) =>
      fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'MessageSid=cap_x&MessageStatus=failed' });
    expect((await post('/sms/provider/capture/status')).status).toBe(403);
    expect((await post('/sms/provider/twilio/status')).status).toBe(404);
  });
});
