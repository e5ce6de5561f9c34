import { EmailParams, EmailStatus, Recipient, Sender, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from './sdk.js';
import { addr, captured, sent, settled, simple, sql, until } from './send-helpers.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const now = () => Math.floor(Date.now() / 1000);

describe('ms.email.sendBulk / getBulkStatus', () => {
  const completed = (id: string) =>
    until(async () => {
      const res = await ms.email.getBulkStatus(id);
      return res.body.data.state === 'completed' ? res : null;
    }, 15_000, 'the bulk send to complete');

  it('accepts EmailParams[], sends the valid ones and reports validation errors', async () => {
    const [a, b] = [addr('bulk-a'), addr('bulk-b')];
    const res = await ms.email.sendBulk([
      simple(domain, a),
      simple({ name: 'elsewhere.example' }, addr()),
      simple(domain, b).setSubject('Bulk {{n}}').setPersonalization([{ email: b, data: { n: 'two' } }]),
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.body).toEqual({ message: 'The bulk email is being processed.', bulk_email_id: expect.stringMatching(/^[a-z0-9]{24}$/) });
    const done = await completed(res.body.bulk_email_id);
    expect(done.statusCode).toBe(200);
    const d = done.body.data;
    expect(d).toMatchObject({
      id: res.body.bulk_email_id, state: 'completed', total_recipients_count: 3,
      validation_errors_count: 1, suppressed_recipients_count: 0, suppressed_recipients: null,
    });
    expect(Object.keys(d.validation_errors)).toEqual(['message.1.from.email']);
    expect(d.created_at).toMatch(ISO);
    expect(d.messages_id).toHaveLength(2);
    const mails = [...(await captured(s, d.messages_id[0])), ...(await captured(s, d.messages_id[1]))];
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[a, 'Hi'], [b, 'Bulk two']]);
  });

  it('404 for an unknown or another account\'s bulk id; 422 for an empty array', async () => {
    const res = await ms.email.sendBulk([simple(domain)]);
    expect(await failure(ms.email.getBulkStatus(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.email.getBulkStatus(res.body.bulk_email_id))).toEqual({ status: 404, body: NOT_FOUND });
    const empty = await failure(ms.email.sendBulk([]));
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe(INVALID);
  });
});

describe('ms.email.schedule', () => {
  it('list, single and delete a send made with setSendAt', async () => {
    const sendAt = now() + 3600;
    const id = await sent(ms, simple(domain).setSubject('Later').setSendAt(sendAt));
    const list = await ms.email.schedule.list({ domain_id: domain.id, status: 'scheduled', page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    const row = list.body.data.find((r: { message_id: string }) => r.message_id === id);
    expect(row).toEqual({ message_id: id, subject: 'Later', send_at: expect.stringMatching(ISO), status: 'scheduled', status_message: null, created_at: expect.stringMatching(ISO) });
    expect(new Date(row.send_at).getTime()).toBe(sendAt * 1000);

    const one = await ms.email.schedule.single(id);
    expect(one.body.data).toMatchObject({ message_id: id, status: 'scheduled', domain: { id: domain.id, name: domain.name }, message: { id } });
    const [email] = await sql(s, 'select status from emails where message_id = ?', [id]);
    expect(email.status).toBe('scheduled');

    const del = await ms.email.schedule.delete(id);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBeFalsy();
    expect(await failure(ms.email.schedule.single(id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await settled(s, id))[0]!.status).toBe('cancelled');
  });

  it('sendAt takes an ISO string too; bad values are a 422', async () => {
    const at = new Date((now() + 7200) * 1000).toISOString();
    const id = await sent(ms, simple(domain).setSendAt(at));
    expect(new Date((await ms.email.schedule.single(id)).body.data.send_at).toISOString()).toBe(at.replace(/\.\d+Z$/, '.000Z'));
    const far = await failure(ms.email.send(simple(domain).setSendAt(now() + 73 * 3600)));
    expect(far.status).toBe(422);
    expect(Object.keys(far.body.errors)).toEqual(['send_at']);
  });

  it('404 for unknown ids and another account; 422 for a bad status filter', async () => {
    const id = await sent(ms, simple(domain).setSendAt(now() + 3600));
    for (const call of [() => ms.email.schedule.single(UNKNOWN_ID), () => ms.email.schedule.delete(UNKNOWN_ID),
      () => other.email.schedule.single(id), () => other.email.schedule.delete(id)]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect((await other.email.schedule.list()).body.data).toEqual([]);
    const bad = await failure(ms.email.schedule.list({ status: 'queued' as never }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
  });
});

describe('ms.email.message', () => {
  it('list answers each accepted send; single adds its emails and domain', async () => {
    const [a, b] = [addr('m-a'), addr('m-b')];
    const id = await sent(ms, simple(domain).setTo([new Recipient(a), new Recipient(b)]).setTags(['t1']));
    await settled(s, id);
    const list = await ms.email.message.list({ page: 1, limit: 100 });
    expect(list.statusCode).toBe(200);
    const item = list.body.data.find((m: { id: string }) => m.id === id);
    expect(item).toEqual({ id, created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO) });

    const one = await ms.email.message.single(id);
    expect(one.statusCode).toBe(200);
    const d = one.body.data;
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });
    expect(d.emails.map((e: { to: string }) => e.to)).toEqual([a, b]);
    for (const e of d.emails) expect(e).toMatchObject({ message_id: id, status: 'delivered', tags: ['t1'], subject: 'Hi' });
    expect(await failure(ms.email.message.single(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.email.message.single(id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await other.email.message.list()).body.data).toEqual([]);
  });
});

describe('ms.email.list / single (email log)', () => {
  const range = () => ({ domain_id: domain.id, date_from: now() - 3600, date_to: now() + 60 });

  it('lists the emails of a message and filters by status', async () => {
    const id = await sent(ms, simple(domain).setTo([new Recipient(addr('log'))]));
    await settled(s, id);
    const res = await ms.email.list({ ...range(), message_id: id, status: [EmailStatus.DELIVERED] });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const e = res.body.data[0];
    expect(e).toMatchObject({ message_id: id, domain_id: domain.id, status: 'delivered', from: `hello@${domain.name}`, subject: 'Hi' });
    expect(e.created_at).toMatch(PLAIN);
    expect((await ms.email.list({ ...range(), message_id: id, status: [EmailStatus.QUEUED] })).body.data).toEqual([]);
  });

  it('single answers the email with its recipient and activity', async () => {
    const to = addr('one');
    const id = await sent(ms, simple(domain, to));
    const [row] = await settled(s, id);
    const res = await ms.email.single(row!.id);
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ id: row!.id, to, message_id: id, status: 'delivered', recipient: { email: to } });
    expect(d.activity.map((a: { type: string }) => a.type)).toEqual(['queued', 'sent', 'delivered']);
    expect(await failure(ms.email.single(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.email.single(row!.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  // The SDK's EmailsQueryParams requires date_from and date_to; the range must bound the rows.
  it('filters by the SDK\'s date_from / date_to', async () => {
    await settled(s, await sent(ms, simple(domain)));
    const before = await ms.email.list({ domain_id: domain.id, date_from: now() - 7200, date_to: now() - 3600 });
    expect(before.body.data).toEqual([]);
  });

  // The SDK's EmailsQueryParams names these filters recipient_email and template_id.
  it('filters by the SDK\'s recipient_email', async () => {
    const [a, b] = [addr('fa'), addr('fb')];
    await settled(s, await sent(ms, simple(domain).setTo([new Recipient(a), new Recipient(b)])));
    const res = await ms.email.list({ ...range(), recipient_email: a });
    expect(res.body.data.map((e: { to: string }) => e.to)).toEqual([a]);
  });

  it('filters by the SDK\'s template_id', async () => {
    const t = await ms.email.template.create({ html: '<p>x</p>', text: 'x', domain_id: domain.id });
    await settled(s, await sent(ms, simple(domain)));
    await settled(s, await sent(ms, new EmailParams().setFrom(new Sender(`hello@${domain.name}`)).setTo([new Recipient(addr())]).setSubject('T').setTemplateId(t.body.data.id)));
    const byTemplate = await ms.email.list({ ...range(), template_id: t.body.data.id });
    expect(byTemplate.body.data.map((e: { template_id: string }) => e.template_id)).toEqual([t.body.data.id]);
  });

  // SPEC.md names the paged lists and the email log is not one of them ("Other lists return only
  // data"), so where the SDK's EmailListResponse types links and meta, SPEC.md wins.
  it('answers the list in a plain data envelope, as SPEC.md says', async () => {
    await settled(s, await sent(ms, simple(domain)));
    const list = await ms.email.list({ ...range(), page: 1, limit: 10 });
    expect(Object.keys(list.body)).toEqual(['data']);
  });

  // The SDK's EmailListItem / Email: text, html, headers and interaction on every row.
  it('answers the fields of the SDK\'s Email type', async () => {
    const id = await sent(ms, simple(domain));
    const [row] = await settled(s, id);
    const item = (await ms.email.list({ ...range(), message_id: id })).body.data[0];
    for (const k of ['text', 'html', 'headers', 'interaction']) expect(item).toHaveProperty(k);
    const one = (await ms.email.single(row!.id)).body.data;
    expect(one).toMatchObject({ text: expect.stringContaining('Plain'), html: expect.stringContaining('HTML'), interaction: [] });
    expect(one).toHaveProperty('headers');
    expect(item).toMatchObject({ text: null, html: null, headers: null, interaction: [] });
    // An activity entry carries suppression_reason only when suppressed.
    for (const a of one.activity) expect(a).not.toHaveProperty('suppression_reason');
  });
});
