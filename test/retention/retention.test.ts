import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { address, emailsOf, send, setPlan, sql, waitFor } from '../email-log/helpers.js';
import { retentionPurgeWorker } from '../../src/modules/retention/retention.worker.js';
import { RETENTION_DAYS } from '../../src/config/plans.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createWebhook, insertEvent, startEngineBed, stopEngineBed } from '../webhooks/engine-support.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { purgeExpired } from '../../src/modules/retention/retention.purge.js';
import { MAIL_TABLES } from '../../src/modules/retention/partitions.js';

/**
 * Per-plan retention, with a fast-forwarded clock: mail is kept for the days of the plan its
 * account was on when it was sent (every read hides it from then on), and the purge job (run as
 * of a later instant) drops its week once nothing in it is kept any more; the other logs go by
 * the account's plan at the purge.
 */
let s: TestServer;
let adminId: string;
let mine: { id: string; name: string };
let theirs: { id: string; name: string };
let other: { id: string; token: string };
let receiver: Receiver;
const DAY = 86_400_000;

/** Runs the purge job as the worker would, as of `days` from now. */
async function purgeAt(days: number, server: TestServer = s): Promise<void> {
  await retentionPurgeWorker.run({ now: new Date(Date.now() + days * DAY).toISOString() }, server.app.services, { id: 'test', retryCount: 0, retryLimit: 0 });
}

const messageStatus = async (id: string, token?: string) => (await s.rest('GET', `/messages/${id}`, { token })).status;
const emailStatus = async (id: string, token?: string) => (await s.rest('GET', `/email/${id}`, { token })).status;
const range = () => `date_from=${Math.floor(Date.now() / 1000) - 3600}&date_to=${Math.floor(Date.now() / 1000) + 3600}`;
const activityEmails = async (domainId: string, token?: string) =>
  new Set(((await s.rest('GET', `/activity/${domainId}?${range()}&limit=100`, { token })).body.data as any[]).map((a) => a.email.id));

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  adminId = await accountIdOf(s);
  other = await createAccount(s, 'Professional account');
  await setPlan(s, other.id, 'professional');
  mine = await seedDomain(s, { dkim: true });
  theirs = await seedDomain(s, { accountId: other.id, dkim: true });
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

it('states a retention for every plan, longer on dearer plans', () => {
  expect(RETENTION_DAYS).toEqual({ free: 7, starter: 30, professional: 90, enterprise: 365 });
});

it('stamps mail with the retention of the plan it was sent on, and drops its week once nothing in it is kept, scheduled or young', async () => {
  // Sent while the admin account is on the free plan (7 days)...
  const onFree = await send(s, mine, { to: [address()] });
  const [freeEmail] = await emailsOf(s, onFree);
  // ...then the account upgrades: what it sends now is kept 365 days, what it sent before still 7.
  await setPlan(s, adminId, 'enterprise');
  const onEnterprise = await waitFor('a send stamped with the new plan', async () => {
    const id = await send(s, mine, { to: [address()] });
    const [row] = await sql(s, "select purge_after - created_at > interval '300 days' as long from messages where id = ?", [id]);
    return row.long ? id : null;
  });
  const [enterpriseEmail] = await emailsOf(s, onEnterprise);
  const scheduled = await send(s, mine, { to: [address()], send_at: Math.floor(Date.now() / 1000) + 3600 });
  const onProfessional = await send(s, theirs, { to: [address()], token: other.token });
  const [professionalEmail] = await emailsOf(s, onProfessional, 'delivered', other.token);
  const kept = async (id: string) =>
    (await sql<{ days: number }>(s, 'select round(extract(epoch from purge_after - coalesce(send_at, created_at)) / 86400)::int as days from messages where id = ?', [id]))[0]?.days;
  expect(await kept(onFree)).toBe(RETENTION_DAYS.free);
  expect(await kept(onEnterprise)).toBe(RETENTION_DAYS.enterprise);
  expect(await kept(scheduled)).toBe(RETENTION_DAYS.enterprise);
  expect(await kept(onProfessional)).toBe(RETENTION_DAYS.professional);
  // The message, its email, their activities and the captured copy share the week of their acceptance.
  const [{ week }] = await sql<{ week: string }>(s, 'select tableoid::regclass::text as week from messages where id = ?', [onFree]);
  expect(week).toMatch(/^messages_p\d{8}$/);
  const rowsOf = async (email: { id: string }) =>
    (
      await sql<{ part: string }>(
        s,
        `select tableoid::regclass::text as part from emails where id = ?
         union all select tableoid::regclass::text from activities where email_id = ?
         union all select tableoid::regclass::text from captured_mails where email_id = ?`,
        [email.id, email.id, email.id],
      )
    ).map((r) => r.part.replace(/_p\d{8}$/, ''));
  expect((await rowsOf(freeEmail)).sort()).toEqual(expect.arrayContaining(['activities', 'captured_mails', 'emails']));
  const suffix = week.slice('messages'.length);
  const mailWeeksDropped = async (days: number) =>
    (await purgeExpired(s.app.services, { now: new Date(Date.now() + days * DAY) })).partitions.dropped.filter((n) =>
      MAIL_TABLES.some((t) => n === `${t}${suffix}`),
    );

  // Twelve days on, the week has ended and the free send is past its time (hidden by every read:
  // the next test), but the others keep the week.
  expect(await mailWeeksDropped(12)).toEqual([]);
  // A year and more on, every send is past its time but the schedule still waits: the week stays.
  expect(await mailWeeksDropped(RETENTION_DAYS.enterprise + 5)).toEqual([]);
  expect(await messageStatus(scheduled)).toBe(200);
  // Cancelled, the schedule keeps nothing either: the week of mail drops whole, all five tables.
  expect((await s.rest('DELETE', `/message-schedules/${scheduled}`)).status).toBe(204);
  const dropped = await mailWeeksDropped(RETENTION_DAYS.enterprise + 5);
  expect(dropped.map((n) => n.replace(/_p\d{8}$/, '')).sort()).toEqual(['activities', 'captured_mails', 'emails', 'message_attachments', 'messages']);
  for (const id of [onFree, onEnterprise, scheduled]) expect(await messageStatus(id)).toBe(404);
  expect(await messageStatus(onProfessional, other.token)).toBe(404);
  expect(await emailStatus(freeEmail.id)).toBe(404);
  expect(await emailStatus(professionalEmail.id, other.token)).toBe(404);
  expect(await rowsOf(enterpriseEmail)).toEqual([]);
  // The job at the real time would make the week again; until then what the tests below write
  // waits in the default partitions, which the purge deletes by rows.
});

it('hides mail past its retention from every read at once, before the purge runs, and keeps showing mail still to deliver', async () => {
  const to = address();
  const gone = await send(s, mine, { to: [to] });
  const [email] = await emailsOf(s, gone);
  const waiting = await send(s, mine, { to: [address()], send_at: Math.floor(Date.now() / 1000) + 3600 });
  const recipient = (await s.rest('GET', `/recipients?domain_id=${mine.id}&limit=100`)).body.data.find((r: { email: string }) => r.email === to);
  const recipientEmails = async () => ((await s.rest('GET', `/recipients/${recipient.id}`)).body.data.emails as { id: string }[]).map((e) => e.id);
  const inboxEmails = async () => ((await s.gql('{ captured_emails(limit: 100) { data { email_id } } }')).body.data.captured_emails.data as { email_id: string }[]).map((c) => c.email_id);
  // Shown while young, everywhere the checks below look.
  expect(await messageStatus(gone)).toBe(200);
  expect((await activityEmails(mine.id)).has(email.id)).toBe(true);
  expect(await recipientEmails()).toContain(email.id);
  expect(await inboxEmails()).toContain(email.id);
  // Each activity (queued at acceptance, sent and delivered by delivery) carries its message's purge_after.
  const [stamps] = await sql(
    s,
    'select count(*)::int as n, (count(*) filter (where a.purge_after = m.purge_after))::int as same from activities a join emails e on e.id = a.email_id join messages m on m.id = e.message_id where a.email_id = ?',
    [email.id],
  );
  expect(stamps.n).toBeGreaterThanOrEqual(3);
  expect(stamps.same).toBe(stamps.n);
  // Both past their time; the purge has not run.
  await sql(s, "update messages set purge_after = now() - interval '1 minute' where id in (?, ?)", [gone, waiting]);

  expect(await messageStatus(gone)).toBe(404);
  expect(await emailStatus(email.id)).toBe(404);
  expect((await s.rest('GET', `/emails?message_id=${gone}`)).body.data).toEqual([]);
  expect(((await s.rest('GET', '/messages?limit=100')).body.data as { id: string }[]).map((m) => m.id)).not.toContain(gone);
  expect(await recipientEmails()).not.toContain(email.id);
  expect(await inboxEmails()).not.toContain(email.id);
  const gql = await s.gql('query($id: ID!) { email(email_id: $id) { id } }', { id: email.id });
  expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  // A schedule still waits to go: shown, whatever its purge_after says.
  expect(await messageStatus(waiting)).toBe(200);
  expect((await s.rest('GET', `/message-schedules/${waiting}`)).status).toBe(200);
  // Its activities, whose purge_after is set back as the message's was.
  await sql(s, "update activities set purge_after = now() - interval '1 minute' where email_id = ?", [email.id]);
  expect((await activityEmails(mine.id)).has(email.id)).toBe(false);
  // Hidden, not yet deleted: the purge does that.
  expect(await sql(s, 'select 1 from messages where id = ?', [gone])).toHaveLength(1);
});

it('leaves waiting events alone, however old: domain_events is the webhook engine\'s backlog, not a log', async () => {
  // A bed of its own with the api role alone: no worker's tick takes the events while they are looked at.
  const bed = await startEngineBed();
  try {
    const { s: api, receiver: rcv, accountId, domainId } = bed;
    await createWebhook(api, rcv, { domainId, events: ['activity.sent', 'maintenance.start'], path: '/waiting' });
    const ids = [
      await insertEvent(api, { account_id: accountId, domain_id: domainId, type: 'activity.sent', payload: { n: 'of the account' } }),
      // Of no account: a maintenance window, for every account.
      await insertEvent(api, { account_id: null, domain_id: null, type: 'maintenance.start', payload: { maintenance_id: 'm-retention' } }),
    ].sort();
    const waiting = async () => (await sql<{ id: string }>(api, 'select id from domain_events order by id')).map((r) => r.id);
    expect(await waiting()).toEqual(ids);
    // Past the account's retention (free: 7 days), and past the longest one.
    for (const days of [RETENTION_DAYS.free + 1, RETENTION_DAYS.enterprise + 1]) {
      await purgeAt(days, api);
      expect(await waiting()).toEqual(ids);
    }
    // The engine still has them to deliver.
    await runTick(api.app.services);
    expect(await waiting()).toEqual([]);
    const delivered = rcv.received('/waiting').filter((r) => r.json?.type !== 'webhook.test');
    expect(delivered.map((r) => r.json.type).sort()).toEqual(['activity.sent', 'maintenance.start']);
  } finally {
    await stopEngineBed(bed);
  }
});

it('purges a webhook\'s log (deliveries and attempts) by the account\'s current plan', async () => {
  const hook = await createWebhook(s, receiver, { domainId: theirs.id, events: ['activity.sent', 'activity.delivered'], path: '/retention', token: other.token });
  await send(s, theirs, { to: [address()], token: other.token });
  await receiver.waitFor((all) => all.filter((r) => r.path.startsWith('/retention')).length >= 3);
  const log = async () => ((await s.rest('GET', `/webhooks/${hook.id}/log?limit=100`, { token: other.token })).body.data as any[]).length;
  const before = await waitFor('the deliveries in the log', async () => ((await log()) >= 3 ? log() : null));
  const deliveries = () => sql(s, 'select 1 from webhook_deliveries where webhook_id = ?', [hook.id]);
  expect((await deliveries()).length).toBeGreaterThanOrEqual(2);
  await purgeAt(RETENTION_DAYS.professional - 10);
  expect(await log()).toBe(before);
  await purgeAt(RETENTION_DAYS.professional + 1);
  expect(await log()).toBe(0);
  expect(await deliveries()).toEqual([]);
  expect((await s.rest('GET', `/webhooks/${hook.id}`, { token: other.token })).status).toBe(200);
});

it('purges a bulk request once past the retention, its messages hidden from their own time on', async () => {
  const made = await s.rest('POST', '/bulk-email', {
    token: other.token,
    body: [{ from: { email: `sender@${theirs.name}` }, to: [{ email: address() }], subject: 'Bulk', text: 'b' }],
  });
  expect(made.status).toBe(202);
  const id = made.body.bulk_email_id;
  const done = await waitFor('the bulk send to complete', async () => {
    const res = await s.rest('GET', `/bulk-email/${id}`, { token: other.token });
    return res.body.data?.state === 'completed' ? res.body.data : null;
  });
  const [messageId] = done.messages_id;
  await emailsOf(s, messageId, 'delivered', other.token);
  await purgeAt(RETENTION_DAYS.professional - 10);
  expect((await s.rest('GET', `/bulk-email/${id}`, { token: other.token })).status).toBe(200);
  expect(await messageStatus(messageId, other.token)).toBe(200);
  await purgeAt(RETENTION_DAYS.professional + 1);
  expect((await s.rest('GET', `/bulk-email/${id}`, { token: other.token })).status).toBe(404);
  // Its message stays in its week until the week drops (the test above), hidden once past its time.
  await sql(s, "update messages set purge_after = now() - interval '1 minute' where id = ?", [messageId]);
  expect(await messageStatus(messageId, other.token)).toBe(404);
});
