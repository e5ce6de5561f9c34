import { ActivityEventType, AnalyticsGroupByType, type MailerSend } from 'mailersend';
import { CHROME, hit, IPHONE, trackingLinks } from '../tracking/helpers.js';
import { seedDomain } from '../support/factories.js';
import { createAccount, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from './sdk.js';
import { addr, captured, sent, simple } from './send-helpers.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let domain: { id: string; name: string };
/** Two delivered emails of `domain`, tagged `read`; the first opened on desktop Chrome, the second on an iPhone. */
let emails: { id: string; to: string }[];
const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
  domain = await seedDomain(s, { dkim: true });
  const id = await sent(ms, simple(domain).setTo([{ email: addr('r1') }, { email: addr('r2') }]).setTags(['read']));
  const mails = await captured(s, id);
  for (const [i, m] of mails.entries()) expect((await hit(s, trackingLinks(m.html!, 'o')[0]!, { ua: i ? IPHONE : CHROME })).status).toBe(200);
  emails = mails.map((m) => ({ id: m.emailId, to: m.to }));
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('ms.email.activity', () => {
  const range = () => ({ date_from: now() - 3600, date_to: now() + 60 });

  it('domain() lists the domain\'s activity with the simple pager, filtered by event[]', async () => {
    const res = await ms.email.activity.domain(domain.id, { ...range(), page: 1, limit: 100 });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(res.body.meta).sort()).toEqual(['current_page', 'from', 'path', 'per_page', 'to']);
    const types = res.body.data.map((a: { type: string }) => a.type).sort();
    expect(types).toEqual(['delivered', 'delivered', 'opened', 'opened', 'opened_unique', 'opened_unique', 'queued', 'queued', 'sent', 'sent']);
    const a = res.body.data[0];
    expect(a.created_at).toMatch(PLAIN);
    expect(a).not.toHaveProperty('suppression_reason');
    expect(a.email).toMatchObject({ from: `hello@${domain.name}`, subject: 'Hi', tags: ['read'], recipient: { email: expect.any(String) } });

    const only = await ms.email.activity.domain(domain.id, { ...range(), event: [ActivityEventType.OPENED, ActivityEventType.DELIVERED] });
    expect(only.body.data.map((x: { type: string }) => x.type).sort()).toEqual(['delivered', 'delivered', 'opened', 'opened']);
    const page = await ms.email.activity.domain(domain.id, { ...range(), page: 2, limit: 10 });
    expect(page.body.meta).toMatchObject({ current_page: 2, per_page: 10 });
    const plain = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const dated = await ms.email.activity.domain(domain.id, { date_from: plain(new Date(Date.now() - 3600_000)), date_to: plain(new Date(Date.now() + 60_000)) });
    expect(dated.body.data.length).toBe(10);
  });

  it('single() answers one activity', async () => {
    const list = await ms.email.activity.domain(domain.id, { ...range(), event: [ActivityEventType.OPENED_UNIQUE] });
    const id = list.body.data[0].id;
    const res = await ms.email.activity.single(id);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id, type: 'opened_unique', email: { subject: 'Hi' } });
  });

  it('404 for unknown and another account\'s ids; 422 on the range and events', async () => {
    const [a] = (await ms.email.activity.domain(domain.id, range())).body.data;
    for (const call of [
      () => ms.email.activity.domain(UNKNOWN_ID, range()),
      () => ms.email.activity.single(UNKNOWN_ID),
      () => other.email.activity.domain(domain.id, range()),
      () => other.email.activity.single(a.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const backwards = await failure(ms.email.activity.domain(domain.id, { date_from: now(), date_to: now() - 60 }));
    expect(backwards.status).toBe(422);
    expect(backwards.body.message).toBe(INVALID);
    const event = await failure(ms.email.activity.domain(domain.id, { ...range(), event: ['nope' as ActivityEventType] }));
    expect(Object.keys(event.body.errors)).toEqual(['event.0']);
  });
});

describe('ms.email.analytics', () => {
  const range = () => ({ date_from: now() - 2 * DAY, date_to: now(), domain_id: domain.id });

  it('byDate counts each event per day, every day present', async () => {
    // One range for the request and the check: a second boundary may pass between two range() calls.
    const asked = range();
    const res = await ms.email.analytics.byDate({
      ...asked, group_by: AnalyticsGroupByType.DAYS, tags: ['read'],
      event: [ActivityEventType.SENT, ActivityEventType.DELIVERED, ActivityEventType.OPENED, ActivityEventType.CLICKED],
    });
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ date_from: asked.date_from, group_by: 'days' });
    expect(d.stats).toHaveLength(3);
    const today = d.stats[2];
    expect(today).toMatchObject({ sent: 2, delivered: 2, opened: 2, clicked: 0 });
    expect(d.stats[0]).toMatchObject({ sent: 0, delivered: 0, opened: 0, clicked: 0 });
    const none = await ms.email.analytics.byDate({ ...range(), tags: ['other'], event: [ActivityEventType.SENT] });
    expect(none.body.data.stats.every((x: { sent: number }) => x.sent === 0)).toBe(true);
  });

  it('byUserAgent and byReadingEnvironment group the opens', async () => {
    const ua = await ms.email.analytics.byUserAgent(range());
    expect(ua.statusCode).toBe(200);
    expect(ua.body.data).toMatchObject({ date_from: range().date_from });
    expect(ua.body.data.stats.map((x: { name: string; count: number }) => [x.name, x.count]).sort()).toEqual([['Chrome (Windows)', 1], ['Mobile Safari (iOS)', 1]]);
    const env = await ms.email.analytics.byReadingEnvironment(range());
    expect(env.body.data.stats.map((x: { name: string; count: number }) => [x.name, x.count]).sort()).toEqual([['desktop', 1], ['mobile', 1]]);
  });

  it('byCountry answers the opens per country', async () => {
    const res = await ms.email.analytics.byCountry(range());
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['date_from', 'date_to', 'stats']);
    const total = res.body.data.stats.reduce((n: number, x: { count: number }) => n + x.count, 0);
    expect(total).toBeLessThanOrEqual(2);
    for (const x of res.body.data.stats) expect(x.name).toMatch(/^[A-Z]{2}$/);
  });

  it('422 for a bad range or group_by; another account sees nothing', async () => {
    const bad = await failure(ms.email.analytics.byDate({ date_from: now(), date_to: now() - 60, event: [ActivityEventType.SENT] }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty('date_to');
    const group = await failure(ms.email.analytics.byDate({ ...range(), group_by: 'hours' as never, event: [ActivityEventType.SENT] }));
    expect(Object.keys(group.body.errors)).toEqual(['group_by']);
    expect(await failure(other.email.analytics.byCountry(range()))).toEqual({ status: 404, body: NOT_FOUND });
    const theirs = await other.email.analytics.byUserAgent({ date_from: now() - DAY, date_to: now() });
    expect(theirs.body.data.stats).toEqual([]);
  });
});

describe('ms.email.recipient', () => {
  it('list, single and delete', async () => {
    const list = await ms.email.recipient.list({ domain_id: domain.id, page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data.map((r: { email: string }) => r.email).sort()).toEqual(emails.map((e) => e.to).sort());
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 2, last_page: 1 });
    const r = list.body.data[0];
    expect(Object.keys(r).sort()).toEqual(['created_at', 'deleted_at', 'email', 'id', 'updated_at']);
    expect(r.deleted_at).toBe('');

    const one = await ms.email.recipient.single(r.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toMatchObject({ id: r.id, email: r.email, domain: { id: domain.id, name: domain.name } });
    expect(one.body.data.emails).toHaveLength(1);

    expect(await failure(other.email.recipient.single(r.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.email.recipient.delete(r.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await other.email.recipient.list()).body.data).toEqual([]);

    const del = await ms.email.recipient.delete(r.id);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBeFalsy();
    expect(await failure(ms.email.recipient.single(r.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await ms.email.recipient.list({ domain_id: domain.id })).body.data.map((x: { id: string }) => x.id)).not.toContain(r.id);
    expect(await failure(ms.email.recipient.delete(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
    const paging = await failure(ms.email.recipient.list({ limit: 5 }));
    expect(Object.keys(paging.body.errors)).toEqual(['limit']);
  });
});
