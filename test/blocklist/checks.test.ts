import pg from 'pg';
import { seedDomain } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, startTestServer, type TestServer } from '../support/server.js';

const IP_ZONES = ['zen.example-bl.test', 'bl.example-bl.test'];
const DOMAIN_ZONES = ['dbl.example-bl.test'];

let s: TestServer;
let r: Receiver;
let db: pg.Client;
beforeAll(async () => {
  r = await startReceiver();
  s = await startTestServer({
    env: {
      BLOCKLIST_IP_ZONES: IP_ZONES.join(','),
      BLOCKLIST_DOMAIN_ZONES: DOMAIN_ZONES.join(','),
      BLOCKLIST_CHECK_INTERVAL_MINUTES: '60',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  });
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await s?.close();
  await r?.close();
});

const get = async (id: string) => (await s.rest('GET', `/blocklist-monitoring/${id}`)).body.data;

/** Polls the monitor until `done` holds (the worker runs the checks), 10 s at most. */
async function until(id: string, done: (m: any) => boolean): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const m = await get(id);
    if (done(m)) return m;
    if (Date.now() > deadline) throw new Error(`monitor ${id} never got there: ${JSON.stringify(m)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Makes the monitor due and runs the cron job now, as the schedule would. */
async function recheck(id: string): Promise<any> {
  const before = (await get(id)).last_check;
  await db.query(`update blocklist_monitors set next_check = now() - interval '1 minute' where id = $1 or parent_id = $1`, [id]);
  await s.app.services.boss.send('blocklist.recheck', {});
  return until(id, (m) => m.last_check !== before);
}

const create = (body: Record<string, unknown>) => s.rest('POST', '/blocklist-monitoring', { body });

describe('blocklist checks against a real DNS server', () => {
  it('the initial check clears in_progress and fills last_check and next_check', async () => {
    const made = (await create({ address: '192.0.2.10' })).body.data;
    expect(made).toMatchObject({ in_progress: true, last_check: null, next_check: null });
    const m = await until(made.id, (x) => !x.in_progress);
    expect(m).toMatchObject({ blocklisted: false, last_checks_count: IP_ZONES.length, hits: [] });
    expect(m.last_check).toMatch(ISO);
    expect(m.next_check).toMatch(ISO);
    expect(Date.parse(m.next_check) - Date.parse(m.last_check)).toBe(60 * 60_000);
  });

  it('the cron takes up a monitor whose initial check never finished', async () => {
    const made = (await create({ address: '192.0.2.77' })).body.data;
    await until(made.id, (x) => !x.in_progress);
    // As if the initial-check job had given up: still in progress an hour and more after creation.
    await db.query(
      `update blocklist_monitors set in_progress = true, last_check = null, next_check = null, created_at = now() - interval '2 hours' where id = $1`,
      [made.id],
    );
    await s.app.services.boss.send('blocklist.recheck', {});
    const m = await until(made.id, (x) => !x.in_progress);
    expect(m.last_check).toMatch(ISO);
  });

  it('an A answer lists the IP; a later clean check delists it', async () => {
    s.dns.add('1.2.0.192.zen.example-bl.test', { type: 'A', address: '127.0.0.2' });
    const made = (await create({ address: '192.0.2.1' })).body.data;
    const listed = await until(made.id, (x) => !x.in_progress);
    expect(listed.blocklisted).toBe(true);
    expect(listed.hits).toHaveLength(1);
    const [hit] = listed.hits;
    expect(Object.keys(hit).sort()).toEqual(['address', 'blocklist_host', 'delisted_at', 'last_checked_at', 'listed_at']);
    expect(hit).toMatchObject({ blocklist_host: 'zen.example-bl.test', address: '192.0.2.1', delisted_at: null });
    expect(hit.listed_at).toMatch(ISO);
    expect(hit.last_checked_at).toBe(hit.listed_at);

    // Still listed: the same hit, checked again.
    const again = await recheck(made.id);
    expect(again.hits).toHaveLength(1);
    expect(again.hits[0].listed_at).toBe(hit.listed_at);
    expect(Date.parse(again.hits[0].last_checked_at)).toBeGreaterThan(Date.parse(hit.listed_at));

    s.dns.remove('1.2.0.192.zen.example-bl.test');
    const clean = await recheck(made.id);
    expect(clean.blocklisted).toBe(false);
    expect(clean.hits[0].delisted_at).toMatch(ISO);
    expect(clean.hits[0].last_checked_at).toBe(clean.hits[0].delisted_at);
  });

  it('Spamhaus\'s 127.255.255.x refusals are no listing', async () => {
    s.dns.add('11.2.0.192.zen.example-bl.test', { type: 'A', address: '127.255.255.254' });
    const made = (await create({ address: '192.0.2.11' })).body.data;
    const m = await until(made.id, (x) => !x.in_progress);
    expect(m).toMatchObject({ blocklisted: false, hits: [] });
  });

  it('checks a domain on the domain lists', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`${domain.name}.dbl.example-bl.test`, { type: 'A', address: '127.0.1.2' });
    const made = (await create({ address: domain.name })).body.data;
    const m = await until(made.id, (x) => !x.in_progress);
    expect(m).toMatchObject({ blocklisted: true, last_checks_count: DOMAIN_ZONES.length });
    expect(m.hits).toEqual([expect.objectContaining({ blocklist_host: 'dbl.example-bl.test', address: domain.name })]);
  });

  it('a range checks each child; the parent is blocklisted when a child is', async () => {
    s.dns.add('22.100.51.198.bl.example-bl.test', { type: 'A', address: '127.0.0.4' });
    const made = (await create({ address: '198.51.100.20/30' })).body.data;
    const m = await until(made.id, (x) => !x.in_progress);
    expect(m).toMatchObject({ blocklisted: true, children_count: 4 });
    expect(m.last_check).toMatch(ISO);
    expect(m).not.toHaveProperty('hits');
    const byIp = Object.fromEntries(m.children.map((c: any) => [c.address, c]));
    expect(byIp['198.51.100.22'].blocklisted).toBe(true);
    expect(byIp['198.51.100.21'].blocklisted).toBe(false);
    for (const c of m.children) expect(c).toMatchObject({ in_progress: false, last_checks_count: IP_ZONES.length });
    const child = await get(byIp['198.51.100.22'].id);
    expect(child.hits).toEqual([expect.objectContaining({ blocklist_host: 'bl.example-bl.test', address: '198.51.100.22' })]);
  });

  it('checks IPv6 by reversed nibbles', async () => {
    const name = `${[...'20010db8000000000000000000000001'].reverse().join('.')}.zen.example-bl.test`;
    s.dns.add(name, { type: 'A', address: '127.0.0.3' });
    const made = (await create({ address: '2001:db8::1' })).body.data;
    expect((await until(made.id, (x) => !x.in_progress)).blocklisted).toBe(true);
  });

  it('a new listing mails the email forward and posts a signed webhook; an old one does not', async () => {
    const path = '/bl-alert';
    s.dns.add('33.2.0.192.zen.example-bl.test', { type: 'A', address: '127.0.0.2' });
    const made = (await create({
      address: '192.0.2.33',
      name: 'Outbound',
      notify: true,
      notify_email: 'alerts@example.test',
      notify_address: r.url(path),
    })).body.data;
    const secret = made.forwards.find((f: any) => f.type === 'webhook').secret;
    r.secretFor(path, secret);

    const [mail] = await mailsTo(s, 'alerts@example.test');
    expect(mail.subject).toBe('Blocklist alert: 192.0.2.33 is listed');
    expect(mail.text).toContain('192.0.2.33 on zen.example-bl.test');

    const [req] = await r.waitFor((all) => all.some((x) => x.path === path));
    expect(req).toMatchObject({ method: 'POST', verified: true, signatureOk: true, standardOk: true, secret });
    expect(req.json).toEqual({
      type: 'blocklist_monitor.listed',
      created_at: expect.stringMatching(ISO.source.replace('\\.\\d{6}', '\\.\\d{3}')),
      data: {
        monitor: { id: made.id, name: 'Outbound', address: '192.0.2.33', type: 'ip' },
        listings: [{ blocklist_host: 'zen.example-bl.test', address: '192.0.2.33', listed_at: expect.any(String) }],
      },
    });

    // Listed again on the next check: nothing new, so no second alert.
    await recheck(made.id);
    s.dns.add('33.2.0.192.bl.example-bl.test', { type: 'A', address: '127.0.0.2' });
    await recheck(made.id);
    await mailsTo(s, 'alerts@example.test', 2);
    const reqs = await r.waitFor((all) => all.filter((x) => x.path === path).length >= 2);
    const posts = reqs.filter((x) => x.path === path);
    expect(posts).toHaveLength(2);
    expect(posts[1].json.data.listings.map((l: any) => l.blocklist_host)).toEqual(['bl.example-bl.test']);
  });

  it('without notify, a listing sends nothing', async () => {
    s.dns.add('44.2.0.192.zen.example-bl.test', { type: 'A', address: '127.0.0.2' });
    const made = (await create({ address: '192.0.2.44', notify_email: 'quiet@example.test' })).body.data;
    expect((await until(made.id, (x) => !x.in_progress)).blocklisted).toBe(true);
    // An alert would have been queued in the check's own transaction, so it would be there by now.
    const { rows } = await db.query(`select count(*)::int as n from pgboss.job where name = 'system-mail.send' and data->>'to' = $1`, ['quiet@example.test']);
    expect(rows[0].n).toBe(0);
  });
});
