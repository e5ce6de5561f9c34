import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { address, emailRef, emailsOf, record, send } from '../email-log/helpers.js';

let s: TestServer;
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const today = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
const at = (daysAgo: number, hour = 12) => new Date((today - daysAgo * DAY + hour * 3600) * 1000);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** A domain with one real, delivered email, whose reference activity can be recorded against. */
async function domainWithEmail(token?: string) {
  const domain = await seedDomain(s, { dkim: true, token });
  const msg = await send(s, domain, { to: [address()], token });
  const [e] = await emailsOf(s, msg, 'delivered', token);
  return { domain, ref: await emailRef(s, e.id) };
}

const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });

describe('GET /v1/analytics/date', () => {
  it('counts each queried event per day, every day present; real sends count today', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [
      { email: ref, type: 'opened', at: at(3) },
      { email: ref, type: 'opened', at: at(3, 20) },
      { email: ref, type: 'clicked', at: at(1) },
      { email: ref, type: 'soft_bounced', at: at(2) },
    ]);
    const from = today - 4 * DAY + 3600;
    const to = now();
    const res = await s.rest('GET', `/analytics/date?domain_id=${domain.id}&date_from=${from}&date_to=${to}&event[]=opened&event[]=clicked&event[]=delivered`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toMatchObject({ date_from: from, date_to: to, group_by: 'days' });
    expect(res.body.data.stats).toEqual([
      { date: today - 4 * DAY, opened: 0, clicked: 0, delivered: 0 },
      { date: today - 3 * DAY, opened: 2, clicked: 0, delivered: 0 },
      { date: today - 2 * DAY, opened: 0, clicked: 0, delivered: 0 },
      { date: today - 1 * DAY, opened: 0, clicked: 1, delivered: 0 },
      { date: today, opened: 0, clicked: 0, delivered: 1 },
    ]);
  });

  it('groups by weeks (from Monday), months and years', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [
      { email: ref, type: 'opened', at: at(20) },
      { email: ref, type: 'opened', at: at(60) },
      { email: ref, type: 'opened', at: at(61) },
    ]);
    const from = today - 62 * DAY;
    const q = `domain_id=${domain.id}&date_from=${from}&date_to=${now()}&event[]=opened`;
    const unit = async (g: string) => {
      const res = await s.rest('GET', `/analytics/date?${q}&group_by=${g}`);
      expect(res.status).toBe(200);
      expect(res.body.data.group_by).toBe(g);
      return res.body.data.stats as { date: number; opened: number }[];
    };
    const utc = (t: number) => new Date(t * 1000);
    const weeks = await unit('weeks');
    const monday = (t: number) => t - ((utc(t).getUTCDay() + 6) % 7) * DAY;
    expect(weeks[0].date).toBe(monday(from));
    expect(weeks[weeks.length - 1].date).toBe(monday(today));
    weeks.forEach((w, i) => i && expect(w.date - weeks[i - 1].date).toBe(7 * DAY));
    expect(weeks.reduce((n, w) => n + w.opened, 0)).toBe(3);
    expect(weeks.find((w) => w.date === monday(today - 20 * DAY))!.opened).toBe(1);

    const months = await unit('months');
    const monthStart = (t: number) => Date.UTC(utc(t).getUTCFullYear(), utc(t).getUTCMonth(), 1) / 1000;
    expect(months[0].date).toBe(monthStart(from));
    expect(months[months.length - 1].date).toBe(monthStart(today));
    expect(months.length).toBeGreaterThanOrEqual(3);
    expect(months.reduce((n, m) => n + m.opened, 0)).toBe(3);

    const years = await unit('years');
    expect(years[0].date).toBe(Date.UTC(utc(from).getUTCFullYear(), 0, 1) / 1000);
    expect(years.reduce((n, y) => n + y.opened, 0)).toBe(3);
  });

  it('tags[] counts an email once when several of its tags match', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [
      { email: { ...ref, tags: ['b', 'a'] }, type: 'opened', at: at(1) },
      { email: { ...ref, tags: ['b'] }, type: 'opened', at: at(1) },
      { email: { ...ref, tags: ['c'] }, type: 'opened', at: at(1) },
    ]);
    const q = (tags: string) => `/analytics/date?domain_id=${domain.id}&date_from=${today - DAY}&date_to=${today}&event[]=opened${tags}`;
    const count = async (tags: string) => (await s.rest('GET', q(tags))).body.data.stats[0].opened;
    expect(await count('')).toBe(3);
    expect(await count('&tags[]=a&tags[]=b')).toBe(2);
    expect(await count('&tags[]=c')).toBe(1);
    expect(await count('&tags[]=zzz')).toBe(0);
  });

  const t = () => now() - DAY;
  it.each([
    ['missing event[]', () => `date_from=${t()}&date_to=${now()}`, { event: ['The event field is required.'] }],
    ['missing date_from', () => `date_to=${now()}&event[]=sent`, { date_from: ['The date from field is required.'] }],
    ['missing date_to', () => `date_from=${t()}&event[]=sent`, { date_to: ['The date to field is required.'] }],
    ['a date that is not an integer', () => `date_from=yesterday&date_to=${now()}&event[]=sent`, { date_from: ['The date from must be an integer.'] }],
    ['date_from not before date_to', () => `date_from=${now()}&date_to=${now()}&event[]=sent`, {
      date_from: ['The date from must be a date before date to.'],
      date_to: ['The date to must be a date after date from.'],
    }],
    ['date_from older than 6 months', () => `date_from=${now() - 200 * DAY}&date_to=${now()}&event[]=sent`, {
      date_from: ['The date from must be within the last 6 months (analytics are kept that long).'],
    }],
    ['a range over 366 days', () => `date_from=${t()}&date_to=${t() + 367 * DAY}&event[]=sent`, {
      date_to: ['The date to may not be more than 366 days after date from.'],
    }],
    ['an unknown group_by', () => `date_from=${t()}&date_to=${now()}&event[]=sent&group_by=hours`, { group_by: ['The selected group by is invalid.'] }],
    ['an unknown event', () => `date_from=${t()}&date_to=${now()}&event[]=sent&event[]=suppressed`, { 'event.1': ['The selected event.1 is invalid.'] }],
    ['over 50 recipient_id[]', () => `date_from=${t()}&date_to=${now()}&event[]=sent&${Array.from({ length: 51 }, (_, i) => `recipient_id[]=r${i}`).join('&')}`, {
      recipient_id: ['The recipient id may not have more than 50 items.'],
    }],
  ])('422 for %s', async (_, q, errors) => {
    const res = await s.rest('GET', `/analytics/date?${q()}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(errors));
  });

  it('accepts recipient_id[] (up to 50) without applying it', async () => {
    const res = await s.rest('GET', `/analytics/date?date_from=${now() - DAY}&date_to=${now()}&event[]=sent&recipient_id[]=x`);
    expect(res.status).toBe(200);
  });
});

describe('GET /v1/analytics/country, /ua-name, /ua-type', () => {
  it('count opens per value, most first, leaving out unknown values and other events', async () => {
    const { domain, ref } = await domainWithEmail();
    const open = (data: Record<string, string>) => ({ email: ref, type: 'opened' as const, at: at(1), data });
    await record(s, [
      open({ country: 'DE', ua_name: 'Chrome', ua_type: 'webmail' }),
      open({ country: 'DE', ua_name: 'Chrome', ua_type: 'webmail' }),
      open({ country: 'DE', ua_name: 'Outlook', ua_type: 'desktop' }),
      open({ country: 'FR', ua_name: 'Safari', ua_type: 'mobile' }),
      open({}),
      { email: ref, type: 'clicked', at: at(1), data: { country: 'US', ua_name: 'Firefox', ua_type: 'desktop' } },
    ]);
    const q = `domain_id=${domain.id}&date_from=${today - 2 * DAY}&date_to=${now()}`;
    const country = await s.rest('GET', `/analytics/country?${q}`);
    expect(country.status).toBe(200);
    expect(country.body).toEqual({ data: { date_from: today - 2 * DAY, date_to: expect.any(Number), stats: [{ name: 'DE', count: 3 }, { name: 'FR', count: 1 }] } });
    expect((await s.rest('GET', `/analytics/ua-name?${q}`)).body.data.stats).toEqual([
      { name: 'Chrome', count: 2 },
      { name: 'Outlook', count: 1 },
      { name: 'Safari', count: 1 },
    ]);
    expect((await s.rest('GET', `/analytics/ua-type?${q}`)).body.data.stats).toEqual([
      { name: 'webmail', count: 2 },
      { name: 'desktop', count: 1 },
      { name: 'mobile', count: 1 },
    ]);
    expect((await s.rest('GET', `/analytics/country?date_from=${today - 10 * DAY}&date_to=${today - 5 * DAY}&domain_id=${domain.id}`)).body.data.stats).toEqual([]);
  });

  it.each(['country', 'ua-name', 'ua-type'])('/%s validates like the others', async (path) => {
    const missing = await s.rest('GET', `/analytics/${path}?date_to=${now()}`);
    expect(missing.body).toEqual(invalid({ date_from: ['The date from field is required.'] }));
    const order = await s.rest('GET', `/analytics/${path}?date_from=${now()}&date_to=${now() - 1}`);
    expect(order.status).toBe(422);
    expect(Object.keys(order.body.errors).sort()).toEqual(['date_from', 'date_to']);
    expect((await s.rest('GET', `/analytics/${path}?date_from=${now() - DAY}&date_to=${now()}&domain_id=nope`)).status).toBe(404);
  });
});

describe('access', () => {
  it('401; 403 without analytics_read; a limited token sees its own domain, 403 on another', async () => {
    const { domain } = await domainWithEmail();
    const { domain: second } = await domainWithEmail();
    const q = `date_from=${today}&date_to=${now()}&event[]=delivered`;
    expect((await s.rest('GET', `/analytics/date?${q}`, { token: null })).status).toBe(401);
    const reader = await tokenWith(s, ['activity_full']);
    expect((await s.rest('GET', `/analytics/date?${q}`, { token: reader })).status).toBe(403);
    expect((await s.rest('GET', `/analytics/country?${q}`, { token: reader })).status).toBe(403);
    const full = await tokenWith(s, ['analytics_full']);
    expect((await s.rest('GET', `/analytics/ua-type?${q}`, { token: full })).status).toBe(200);
    const limited = await tokenWith(s, ['analytics_read'], second.id);
    expect((await s.rest('GET', `/analytics/date?${q}&domain_id=${domain.id}`, { token: limited })).status).toBe(403);
    const mine = await s.rest('GET', `/analytics/date?${q}`, { token: limited });
    expect(mine.body.data.stats.at(-1).delivered).toBe(1);
    const all = await s.rest('GET', `/analytics/date?${q}`);
    expect(all.body.data.stats.at(-1).delivered).toBeGreaterThanOrEqual(2);
  });

  it('another account counts only its own sends and cannot name our domains', async () => {
    const acct = await createAccount(s);
    expect(await accountIdOf(s, acct.token)).toBe(acct.id);
    const { domain } = await domainWithEmail();
    const q = `date_from=${today}&date_to=${now()}&event[]=delivered`;
    expect((await s.rest('GET', `/analytics/date?${q}`, { token: acct.token })).body.data.stats.at(-1).delivered).toBe(0);
    expect((await s.rest('GET', `/analytics/date?${q}&domain_id=${domain.id}`, { token: acct.token })).status).toBe(404);
    await domainWithEmail(acct.token);
    expect((await s.rest('GET', `/analytics/date?${q}`, { token: acct.token })).body.data.stats.at(-1).delivered).toBe(1);
  });
});

describe('GraphQL', () => {
  it('analytics_date and the per-name breakdowns', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [{ email: ref, type: 'opened', at: at(0, 0), data: { country: 'NL', ua_name: 'Thunderbird', ua_type: 'desktop' } }]);
    const vars = { d: domain.id, f: today - DAY, t: now() };
    const res = await s.gql(
      `query($d: ID, $f: Int!, $t: Int!) {
        analytics_date(domain_id: $d, date_from: $f, date_to: $t, event: ["opened", "delivered"]) { group_by stats }
        analytics_country(domain_id: $d, date_from: $f, date_to: $t) { stats { name count } }
        analytics_ua_name(domain_id: $d, date_from: $f, date_to: $t) { stats { name count } }
        analytics_ua_type(domain_id: $d, date_from: $f, date_to: $t) { date_from stats { name count } }
      }`,
      vars,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.analytics_date).toEqual({
      group_by: 'days',
      stats: [{ date: today - DAY, opened: 0, delivered: 0 }, { date: today, opened: 1, delivered: 1 }],
    });
    expect(res.body.data.analytics_country.stats).toEqual([{ name: 'NL', count: 1 }]);
    expect(res.body.data.analytics_ua_name.stats).toEqual([{ name: 'Thunderbird', count: 1 }]);
    expect(res.body.data.analytics_ua_type).toEqual({ date_from: today - DAY, stats: [{ name: 'desktop', count: 1 }] });
    const empty = await s.gql('query($f: Int!, $t: Int!) { analytics_date(date_from: $f, date_to: $t, event: []) { group_by } }', vars);
    expect(empty.body.errors[0].extensions.errors).toEqual({ event: ['The event field is required.'] });
  });
});
