import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { address, emailRef, emailsOf, record, send } from '../email-log/helpers.js';

let s: TestServer;
const DAY = 86_400;
const HOUR = 3_600;
const utcToday = Math.floor(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) / 1000);
/** A UTC midnight a few days back: events around it land on different days by zone. */
const D = utcToday - 5 * DAY;
const at = (t: number) => new Date(t * 1000);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function domainWithEmail() {
  const domain = await seedDomain(s, { dkim: true });
  const msg = await send(s, domain, { to: [address()] });
  const [e] = await emailsOf(s, msg, 'delivered');
  return { domain, ref: await emailRef(s, e.id) };
}

/** The wall clock of a Unix time in a zone, as YYYY-MM-DD HH:MM. */
function wall(t: number, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at(t))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

describe('analytics by date in a time zone', () => {
  it('events near midnight UTC fall on different days with timezone=America/New_York than with UTC', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [
      // 02:00 UTC on D is the evening before in New York (UTC-4 or -5).
      { email: ref, type: 'opened', at: at(D + 2 * HOUR) },
      { email: ref, type: 'opened', at: at(D + 23 * HOUR) },
      // 03:00 UTC on D+1 is still day D in New York.
      { email: ref, type: 'opened', at: at(D + DAY + 3 * HOUR) },
    ]);
    const q = `domain_id=${domain.id}&date_from=${D - 2 * DAY + 12 * HOUR}&date_to=${D + 2 * DAY + 12 * HOUR}&event[]=opened`;

    const utc = await s.rest('GET', `/analytics/date?${q}`);
    expect(utc.status).toBe(200);
    expect(utc.body.data.stats).toEqual([
      { date: D - 2 * DAY, opened: 0 },
      { date: D - DAY, opened: 0 },
      { date: D, opened: 2 },
      { date: D + DAY, opened: 1 },
      { date: D + 2 * DAY, opened: 0 },
    ]);
    expect((await s.rest('GET', `/analytics/date?${q}&timezone=UTC`)).body).toEqual(utc.body);

    const ny = await s.rest('GET', `/analytics/date?${q}&timezone=America/New_York`);
    expect(ny.status).toBe(200);
    const stats = ny.body.data.stats as { date: number; opened: number }[];
    // Every unit starts at a New York midnight, one local day apart, the range's five days.
    expect(stats.map((x) => wall(x.date, 'America/New_York'))).toEqual(
      [-2, -1, 0, 1, 2].map((n) => `${wall(D + n * DAY + 12 * HOUR, 'America/New_York').slice(0, 10)} 00:00`),
    );
    expect(stats.map((x) => x.opened)).toEqual([0, 1, 2, 0, 0]);

    const weeks = await s.rest('GET', `/analytics/date?${q}&group_by=weeks&timezone=America/New_York`);
    expect(weeks.status).toBe(200);
    for (const w of weeks.body.data.stats) {
      expect(wall(w.date, 'America/New_York')).toMatch(/ 00:00$/);
      expect(at(w.date - 12 * HOUR).getUTCDay()).toBe(0); // the noon before a Monday midnight is a Sunday
    }
    expect(weeks.body.data.stats.reduce((n: number, w: { opened: number }) => n + w.opened, 0)).toBe(3);
  });

  it('GraphQL takes the same argument', async () => {
    const { domain, ref } = await domainWithEmail();
    await record(s, [{ email: ref, type: 'clicked', at: at(D + HOUR) }]);
    const query = `query($d: ID, $f: Int!, $t: Int!, $z: String!) {
      analytics_date(domain_id: $d, date_from: $f, date_to: $t, event: ["clicked"], timezone: $z) { stats }
    }`;
    const vars = { d: domain.id, f: D - DAY + 12 * HOUR, t: D + 12 * HOUR };
    const tokyo = await s.gql(query, { ...vars, z: 'Asia/Tokyo' });
    expect(tokyo.body.errors).toBeUndefined();
    // 01:00 UTC is 10:00 in Tokyo the same day; in Los Angeles it is the evening before.
    expect(tokyo.body.data.analytics_date.stats).toEqual([
      { date: D - DAY - 9 * HOUR, clicked: 0 },
      { date: D - 9 * HOUR, clicked: 1 },
    ]);
    const la = await s.gql(query, { ...vars, z: 'America/Los_Angeles' });
    expect(la.body.data.analytics_date.stats.map((x: { clicked: number }) => x.clicked)).toEqual([1, 0]);
  });

  it('an unknown time zone is a 422 on both surfaces', async () => {
    const q = `date_from=${D}&date_to=${D + DAY}&event[]=opened`;
    for (const bad of ['Mars/Olympus', 'not a zone', encodeURIComponent("UTC'; select 1")]) {
      const res = await s.rest('GET', `/analytics/date?${q}&timezone=${bad}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { timezone: ['The selected timezone is invalid.'] } });
    }
    const res = await s.gql('{ analytics_date(date_from: 1, date_to: 2, event: ["opened"], timezone: "Nowhere/Else") { stats } }');
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('analytics by user agent', () => {
  it('ua-name keeps the operating system beside the browser when it is known', async () => {
    const { domain, ref } = await domainWithEmail();
    const open = (data: Record<string, string>) => ({ email: ref, type: 'opened' as const, at: at(utcToday - DAY + 12 * HOUR), data });
    await record(s, [
      open({ ua_name: 'Chrome', ua_os: 'Windows', ua_type: 'desktop' }),
      open({ ua_name: 'Chrome', ua_os: 'Windows', ua_type: 'desktop' }),
      open({ ua_name: 'Chrome', ua_os: 'macOS', ua_type: 'desktop' }),
      open({ ua_name: 'Gmail', ua_os: 'unknown', ua_type: 'webmail' }),
    ]);
    const res = await s.rest('GET', `/analytics/ua-name?domain_id=${domain.id}&date_from=${utcToday - 2 * DAY}&date_to=${utcToday}`);
    expect(res.body.data.stats).toEqual([
      { name: 'Chrome (Windows)', count: 2 },
      { name: 'Chrome (macOS)', count: 1 },
      { name: 'Gmail', count: 1 },
    ]);
  });
});
