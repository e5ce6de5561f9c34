import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { subscribe } from '../support/sse.js';
import { until } from '../sending/helpers.js';
import { gqlAs, loginOk, send, userWith, type Session } from './helpers.js';

/**
 * A console user limited to two domains (A and B) of an account that also has C: every list
 * shows A's and B's rows only, C's rows by id are 403 (as for a token limited to a domain), rows
 * of no domain are out of reach, and whole-account creations are 403. Through /v1 and GraphQL.
 */
let s: TestServer;
let A: { id: string; name: string };
let B: { id: string; name: string };
let C: { id: string; name: string };
let user: Session;
const tag = randomBytes(3).toString('hex');
/** Per domain name: the ids the admin token made there. */
const made: Record<string, { identity: string; blocked: string; message: string; scheduled: string; monitor: string; template: string; email?: string }> = {};
let wideBlockId: string;
let wideTemplateId: string;
let ipMonitorId: string;
let adminBulkId: string;

const must = (what: string, res: { status: number; text: string; body: any }, ok: number) => {
  if (res.status !== ok) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 400)}`);
  return res.body;
};
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const sorted = (...xs: string[]) => [...xs].sort();

beforeAll(async () => {
  s = await startTestServer();
  [A, B, C] = await Promise.all(['a', 'b', 'c'].map((x) => seedDomain(s, { name: `${x}-${tag}.example.test`, dkim: true })));
  for (const d of [A, B, C]) {
    const sender = `sender@${d.name}`;
    const identity = must('identity', await s.rest('POST', '/identities', { body: { domain_id: d.id, email: sender, name: 'S' } }), 201).data.id;
    const blocked = must('blocklist', await s.rest('POST', '/suppressions/blocklist', { body: { domain_id: d.id, recipients: [`blocked@${d.name}`] } }), 201).data[0].id;
    const sent = await s.rest('POST', '/email', { body: { from: { email: sender }, to: [{ email: `to-${tag}@example.org` }], subject: `now ${d.name}`, text: 'x' } });
    must('send', sent, 202);
    const later = await s.rest('POST', '/email', {
      body: { from: { email: sender }, to: [{ email: `later-${tag}@example.org` }], subject: `later ${d.name}`, text: 'x', send_at: Math.floor(Date.now() / 1000) + 7200 },
    });
    must('scheduled send', later, 202);
    const monitor = must('monitor', await s.rest('POST', '/blocklist-monitoring', { body: { address: d.name } }), 201).data.id;
    const template = must('template', await s.rest('POST', '/templates', { body: { name: `tpl ${d.name}`, html: '<p>x</p>', text: 'x', domain_id: d.id } }), 201).data.id;
    made[d.id] = { identity, blocked, message: sent.headers.get('x-message-id')!, scheduled: later.headers.get('x-message-id')!, monitor, template };
  }
  wideTemplateId = must('account-wide template', await s.rest('POST', '/templates', { body: { name: 'wide', html: '<p>x</p>', text: 'x' } }), 201).data.id;
  wideBlockId = must('account-wide blocklist', await s.rest('POST', '/suppressions/blocklist', { body: { recipients: [`wide-${tag}@example.org`] } }), 201).data[0].id;
  ipMonitorId = must('IP monitor', await s.rest('POST', '/blocklist-monitoring', { body: { address: '203.0.113.9' } }), 201).data.id;
  adminBulkId = must('bulk', await s.rest('POST', '/bulk-email', { body: [{ from: { email: `sender@${A.name}` }, to: [{ email: `bulk-${tag}@example.org` }], subject: 'b', text: 'b' }] }), 202).bulk_email_id;
  // Every domain's email captured (sandbox transport), which also means its activity is written.
  await until(async () => {
    const rows = (await s.rest('GET', '/captured-emails?limit=100')).body.data ?? [];
    return [A, B, C].every((d) => rows.some((r: { domain_id: string }) => r.domain_id === d.id));
  }, 60_000, 'an email of every domain captured');
  for (const d of [A, B, C]) made[d.id].email = (await s.rest('GET', `/emails?domain_id=${d.id}&limit=100`)).body.data[0].id;
  const u = await userWith(s, { role: 'manager', domains: [A.id, B.id] });
  user = await loginOk(s, u.email, u.password);
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('a user limited to domains A and B', () => {
  it('whoami names both domains (domain_id is for exactly one), so a client does not take it for the whole account', async () => {
    const me = (await gqlAs(s, user, '{ whoami { domain_id domain_ids } }')).body.data.whoami;
    expect(me.domain_id).toBeNull();
    expect([...me.domain_ids].sort()).toEqual(sorted(A.id, B.id));
    const admin = (await s.gql('{ whoami { domain_id domain_ids } }')).body.data.whoami;
    expect(admin).toEqual({ domain_id: null, domain_ids: null });
  });

  it('lists domains A and B only, gets C by id as 403, and adds no domain', async () => {
    expect(ids((await send(s, 'GET', '/v1/domains?limit=100', { session: user })).body.data)).toEqual(sorted(A.id, B.id));
    const q = await gqlAs(s, user, '{ domains(limit: 100) { data { id } meta { total } } }');
    expect(ids(q.body.data.domains.data)).toEqual(sorted(A.id, B.id));
    expect(q.body.data.domains.meta.total).toBe(2);
    expect((await send(s, 'GET', `/v1/domains/${C.id}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/domains/${A.id}`, { session: user })).status).toBe(200);
    const before = (await s.rest('GET', '/domains?limit=100')).body.data.length;
    expect((await send(s, 'POST', '/v1/domains', { session: user, body: { name: `new-${tag}.example.test` } })).status).toBe(403);
    const m = await gqlAs(s, user, 'mutation($n: String!) { create_domain(name: $n) { id } }', { n: `new2-${tag}.example.test` });
    expect(m.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await s.rest('GET', '/domains?limit=100')).body.data.length).toBe(before);
  });

  it('lists the templates of A and B only, and makes no account-wide one', async () => {
    const rest = await send(s, 'GET', '/v1/templates?limit=100', { session: user });
    expect(ids(rest.body.data)).toEqual(sorted(made[A.id].template, made[B.id].template));
    expect(rest.body.meta.total).toBe(2);
    const q = await gqlAs(s, user, '{ templates(limit: 100) { data { id } } }');
    expect(ids(q.body.data.templates.data)).toEqual(sorted(made[A.id].template, made[B.id].template));
    expect((await send(s, 'GET', `/v1/templates/${made[C.id].template}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/templates/${wideTemplateId}`, { session: user })).status).toBe(404);
    const before = (await s.rest('GET', '/templates?limit=100')).body.meta.total;
    expect((await send(s, 'POST', '/v1/templates', { session: user, body: { name: 'wide?', html: '<p>x</p>', text: 'x' } })).status).toBe(403);
    const m = await gqlAs(s, user, 'mutation { create_template(name: "wide?", html: "<p>x</p>", text: "x") { id } }');
    expect(m.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await send(s, 'POST', '/v1/templates', { session: user, body: { name: 'mine', html: '<p>x</p>', text: 'x', domain_id: C.id } })).status).toBe(403);
    expect((await s.rest('GET', '/templates?limit=100')).body.meta.total).toBe(before);
    const mine = await send(s, 'POST', '/v1/templates', { session: user, body: { name: 'mine', html: '<p>x</p>', text: 'x', domain_id: B.id } });
    expect(mine.status).toBe(201);
    await send(s, 'DELETE', `/v1/templates/${mine.body.data.id}`, { session: user });
  });

  it('lists only the templates a user limited to templates may use', async () => {
    const u = await userWith(s, { role: 'designer', templates: [made[A.id].template, wideTemplateId] });
    const designer = await loginOk(s, u.email, u.password);
    const rest = await send(s, 'GET', '/v1/templates?limit=100', { session: designer });
    expect(ids(rest.body.data)).toEqual(sorted(made[A.id].template, wideTemplateId));
    const q = await gqlAs(s, designer, '{ templates(limit: 100) { data { id } meta { total } } }');
    expect(q.body.data.templates.meta.total).toBe(2);
  });

  it('counts the analytics of A and B only', async () => {
    const since = Math.floor(Date.now() / 1000) - 86_400;
    const range = `date_from=${since}&date_to=${since + 2 * 86_400}&event[]=queued`;
    const total = (res: { body: any }) => (res.body.data.stats as { queued: number }[]).reduce((n, x) => n + x.queued, 0);
    const [a, b, all] = await Promise.all([
      s.rest('GET', `/analytics/date?${range}&domain_id=${A.id}`),
      s.rest('GET', `/analytics/date?${range}&domain_id=${B.id}`),
      s.rest('GET', `/analytics/date?${range}`),
    ]);
    const mine = await send(s, 'GET', `/v1/analytics/date?${range}`, { session: user });
    expect(mine.status).toBe(200);
    expect(total(mine)).toBe(total(a) + total(b));
    expect(total(mine)).toBeLessThan(total(all));
    expect((await send(s, 'GET', `/v1/analytics/date?${range}&domain_id=${C.id}`, { session: user })).status).toBe(403);
  });

  it('lists sender identities of A and B only; C\'s by id is 403', async () => {
    const rest = await send(s, 'GET', '/v1/identities?limit=100', { session: user });
    expect(ids(rest.body.data)).toEqual(sorted(made[A.id].identity, made[B.id].identity));
    const q = await gqlAs(s, user, '{ sender_identities(limit: 100) { id domain { id } } }');
    expect(ids(q.body.data.sender_identities)).toEqual(sorted(made[A.id].identity, made[B.id].identity));
    expect((await send(s, 'GET', `/v1/identities/${made[C.id].identity}`, { session: user })).status).toBe(403);
  });

  it('lists suppressions of A and B only, and adds no account-wide or C entry', async () => {
    const rest = await send(s, 'GET', '/v1/suppressions/blocklist?limit=100', { session: user });
    expect(rest.status).toBe(200);
    expect(ids(rest.body.data)).toEqual(sorted(made[A.id].blocked, made[B.id].blocked));
    const q = await gqlAs(s, user, '{ blocklist(limit: 100) { id } }');
    expect(ids(q.body.data.blocklist)).toEqual(sorted(made[A.id].blocked, made[B.id].blocked));
    expect(ids(q.body.data.blocklist)).not.toContain(wideBlockId);
    expect((await send(s, 'GET', `/v1/suppressions/blocklist?domain_id=${C.id}`, { session: user })).status).toBe(403);
    const wide = await send(s, 'POST', '/v1/suppressions/blocklist', { session: user, body: { recipients: [`nope-${tag}@example.org`] } });
    expect(wide.status).toBe(403);
    const inC = await send(s, 'POST', '/v1/suppressions/blocklist', { session: user, body: { domain_id: C.id, recipients: [`nope-${tag}@example.org`] } });
    expect(inC.status).toBe(403);
    const gqlWide = await gqlAs(s, user, 'mutation($r: [String!]) { add_to_blocklist(recipients: $r) { id } }', { r: [`nope2-${tag}@example.org`] });
    expect(gqlWide.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const all = (await s.rest('GET', '/suppressions/blocklist?limit=100')).body.data.map((r: { pattern: string }) => r.pattern);
    expect(all.filter((p: string) => p.startsWith('nope'))).toEqual([]);
    const inA = await send(s, 'POST', '/v1/suppressions/blocklist', { session: user, body: { domain_id: A.id, recipients: [`yes-${tag}@example.org`] } });
    expect(inA.status).toBe(201);
  });

  it('lists captured mail of A and B only', async () => {
    const rest = await send(s, 'GET', '/v1/captured-emails?limit=100', { session: user });
    const domains = new Set(rest.body.data.map((r: { domain_id: string }) => r.domain_id));
    expect([...domains].sort()).toEqual(sorted(A.id, B.id));
    expect(rest.body.meta.total).toBe(rest.body.data.length);
    const q = await gqlAs(s, user, '{ captured_emails(limit: 100) { data { domain_id } } }');
    expect([...new Set(q.body.data.captured_emails.data.map((r: { domain_id: string }) => r.domain_id))].sort()).toEqual(sorted(A.id, B.id));
  });

  it('reads the activity, emails and schedules of A, never of C', async () => {
    const since = Math.floor(Date.now() / 1000) - 3600;
    const range = `date_from=${since}&date_to=${since + 7200}&limit=100`;
    expect((await send(s, 'GET', `/v1/activity/${C.id}?${range}`, { session: user })).status).toBe(403);
    const a = await send(s, 'GET', `/v1/activity/${A.id}?${range}`, { session: user });
    expect(a.status).toBe(200);
    expect(a.body.data.length).toBeGreaterThan(0);
    const cActivity = (await s.rest('GET', `/activity/${C.id}?${range}`)).body.data[0].id;
    expect((await send(s, 'GET', `/v1/activities/${cActivity}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/emails?domain_id=${C.id}`, { session: user })).status).toBe(403);
    // Unfiltered, the email log, schedules and recipients show the emails of A and B, not C's.
    const emails = await send(s, 'GET', '/v1/emails?limit=100', { session: user });
    expect(emails.status).toBe(200);
    const emailIds = emails.body.data.map((e: { id: string }) => e.id);
    expect(emailIds).toEqual(expect.arrayContaining([made[A.id].email, made[B.id].email]));
    expect(emailIds).not.toContain(made[C.id].email);
    const q = await gqlAs(s, user, '{ emails(limit: 100) { id } }');
    expect(q.body.data.emails.map((e: { id: string }) => e.id)).not.toContain(made[C.id].email);
    expect(q.body.data.emails.length).toBe(emailIds.length);
    const schedules = await send(s, 'GET', '/v1/message-schedules?limit=100', { session: user });
    expect(schedules.body.data.map((m: { message_id: string }) => m.message_id).sort()).toEqual(sorted(made[A.id].scheduled, made[B.id].scheduled));
    expect(schedules.body.meta.total).toBe(2);
    const recipients = await send(s, 'GET', '/v1/recipients?limit=100', { session: user });
    const all = (await s.rest('GET', '/recipients?limit=100')).body.data.length;
    expect(recipients.body.data.length).toBeGreaterThan(0);
    expect(recipients.body.data.length).toBeLessThan(all);
    expect((await send(s, 'GET', `/v1/emails?domain_id=${A.id}`, { session: user })).body.data.length).toBeGreaterThan(0);
    expect((await send(s, 'GET', `/v1/email/${made[C.id].email}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/email/${made[A.id].email}`, { session: user })).status).toBe(200);
    expect((await send(s, 'GET', `/v1/message-schedules?domain_id=${C.id}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/message-schedules/${made[C.id].scheduled}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/message-schedules/${made[A.id].scheduled}`, { session: user })).status).toBe(200);
  });

  it('lists the blocklist monitors of A and B only, and monitors nothing else', async () => {
    const rest = await send(s, 'GET', '/v1/blocklist-monitoring?limit=100', { session: user });
    expect(ids(rest.body.data)).toEqual(sorted(made[A.id].monitor, made[B.id].monitor));
    const q = await gqlAs(s, user, '{ blocklist_monitors(limit: 100) { id } }');
    expect(ids(q.body.data.blocklist_monitors)).toEqual(sorted(made[A.id].monitor, made[B.id].monitor));
    expect((await send(s, 'GET', `/v1/blocklist-monitoring/${made[C.id].monitor}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/blocklist-monitoring/${ipMonitorId}`, { session: user })).status).toBe(403);
    expect((await send(s, 'GET', `/v1/blocklist-monitoring/${made[B.id].monitor}`, { session: user })).status).toBe(200);
    expect((await send(s, 'POST', '/v1/blocklist-monitoring', { session: user, body: { address: '203.0.113.10' } })).status).toBe(403);
  });

  it('hears the live activity of A, never of C, over SSE', async () => {
    const QUERY = (d: { id: string }) => `subscription { activity(domain_id: "${d.id}") { type email { subject } } }`;
    const items = (e: any) => (e.data?.activity ?? []) as { type: string; email: { subject: string } }[];
    const mail = (d: { name: string }, subject: string) =>
      s.rest('POST', '/email', { body: { from: { email: `sender@${d.name}` }, to: [{ email: `live-${tag}@example.org` }], subject, text: 'x' } });
    const inA = await subscribe(s, QUERY(A), user);
    const inC = await subscribe(s, QUERY(C), user);
    try {
      await inA.live((n) => mail(A, `probe ${n}`), (e) => items(e).length > 0);
      await mail(C, 'not for the user');
      // Notices go out in commit order: once A's later mail is heard, C's went by.
      await mail(A, 'after');
      await inA.next((e) => items(e).some((a) => a.email.subject === 'after'), 20_000);
      expect(inC.events.flatMap(items)).toEqual([]);
    } finally {
      inA.close();
      inC.close();
    }
  }, 60_000);

  it('sends a bulk within A and B only, and sees no account-wide bulk', async () => {
    expect((await send(s, 'GET', `/v1/bulk-email/${adminBulkId}`, { session: user })).status).toBe(404);
    const item = (d: { name: string }) => ({ from: { email: `sender@${d.name}` }, to: [{ email: `ubulk-${tag}@example.org` }], subject: `ubulk ${d.name}`, text: 'x' });
    const bulk = await send(s, 'POST', '/v1/bulk-email', { session: user, body: [item(A), item(C)] });
    expect(bulk.status).toBe(202);
    const done = await until(async () => {
      const res = await send(s, 'GET', `/v1/bulk-email/${bulk.body.bulk_email_id}`, { session: user });
      return res.body.data?.state === 'completed' ? res.body.data : null;
    }, 30_000, 'the user\'s bulk send');
    // The job acts within the user's domains: C's item is refused, A's is sent.
    expect(done.validation_errors_count).toBe(1);
    expect(Object.keys(done.validation_errors).every((k) => k.startsWith('message.1'))).toBe(true);
    const subjects = async (d: { id: string }) => (await s.rest('GET', `/emails?domain_id=${d.id}&limit=100`)).body.data.map((e: any) => e.subject ?? e.message?.subject);
    expect(JSON.stringify(await subjects(C))).not.toContain('ubulk');
  });
});
