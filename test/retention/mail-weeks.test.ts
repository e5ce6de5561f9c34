import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { address, emailsOf, sql } from '../email-log/helpers.js';
import { purgeExpired } from '../../src/modules/retention/retention.purge.js';
import { mailHoldMs, MAIL_TABLES } from '../../src/modules/retention/partitions.js';
import { LIMITS } from '../../src/modules/sending/send.limits.js';
import { periodEnd, periodOf, periodStart, PARTITION_DAYS } from '../../src/db/partitions.js';
import { sortableId, sortablePrefix } from '../../src/lib/ids.js';

/**
 * The mail family (messages, emails, attachments, activities, captured copies) is partitioned by
 * week of its ids: a send's rows land in the week of its acceptance, a week drops whole (all five
 * tables) once delivery's hold on it has passed and nothing in it is kept or waiting, and rows
 * deleted one by one (a domain, the default partition's purge) take their parts with them.
 */
let s: TestServer;
let domain: { id: string; name: string };
const DAY = 86_400_000;
const WEEK = PARTITION_DAYS * DAY;
const week = (table: string, startMs: number) => periodOf({ table, idPrefix: '' }, startMs).name;
const partsOf = async (emailId: string, messageId: string) =>
  (
    await sql<{ part: string }>(
      s,
      `select tableoid::regclass::text as part from messages where id = ?
       union all select tableoid::regclass::text from emails where id = ?
       union all select tableoid::regclass::text from message_attachments where message_id = ?
       union all select tableoid::regclass::text from activities where email_id = ?
       union all select tableoid::regclass::text from captured_mails where email_id = ?`,
      [messageId, emailId, messageId, emailId, emailId],
    )
  ).map((r) => r.part);

/** A send with an attachment, delivered (captured); answers its message and email ids. */
async function sendWithAttachment(d: { name: string } = domain): Promise<{ messageId: string; emailId: string }> {
  const res = await s.rest('POST', '/email', {
    body: {
      from: { email: `sender@${d.name}` },
      to: [{ email: address() }],
      subject: 'With a file',
      text: 'See the file.',
      attachments: [{ filename: 'note.txt', content: Buffer.from('a note').toString('base64') }],
    },
  });
  expect(res.status).toBe(202);
  const messageId = res.headers.get('x-message-id')!;
  const [email] = await emailsOf(s, messageId);
  return { messageId, emailId: email.id };
}

/** A message (with one email and one activity) written straight into the week of `atMs`; `status` and `purgeAfter` as given. */
async function mailAt(atMs: number, status: string, purgeAfter: Date): Promise<string> {
  const at = new Date(atMs);
  const [messageId, emailId] = [sortableId(24, atMs), sortableId(16, atMs)];
  const accountId = (await sql<{ account_id: string }>(s, 'select account_id from domains where id = ?', [domain.id]))[0].account_id;
  const recipientId = (await sql<{ id: string }>(s, 'select id from recipients where domain_id = ? limit 1', [domain.id]))[0].id;
  await sql(
    s,
    `insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, cc, bcc, subject, tags, personalization, settings, headers, "references", status, purge_after)
     values (?, ?, ?, ?, ?, 'a@b.c', '[]', '[]', 'Old', '{}', '{}', '{}', '[]', '[]', ?, ?)`,
    [messageId, at, at, accountId, domain.id, status, purgeAfter],
  );
  await sql(
    s,
    `insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, to_email, subject, tags, status)
     values (?, ?, ?, ?, ?, ?, ?, 'r@example.net', 'Old', '{}', 'delivered')`,
    [emailId, at, at, accountId, domain.id, messageId, recipientId],
  );
  await sql(s, `insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data) values (?, ?, ?, ?, ?, ?, 'delivered', '{}')`, [
    sortableId(16, atMs),
    at,
    at,
    accountId,
    domain.id,
    emailId,
  ]);
  return messageId;
}

beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  // The weeks the template was migrated in may be behind: the job makes what is missing.
  await purgeExpired(s.app.services);
});
afterAll(async () => {
  await s?.close();
});

it('keeps a send, its email, attachment, activities and captured copy in the week of its acceptance', async () => {
  const { messageId, emailId } = await sendWithAttachment();
  const thisWeek = periodStart(Date.now());
  const parts = await partsOf(emailId, messageId);
  // The message, the email, the attachment, the captured copy, and queued, sent and delivered.
  expect(parts.length).toBeGreaterThanOrEqual(6);
  expect(new Set(parts)).toEqual(new Set(MAIL_TABLES.map((t) => week(t, thisWeek))));
});

it("drops a past week of mail once delivery's hold on it has passed and nothing in it is kept or waiting, and no sooner", async () => {
  const start = periodStart(Date.now() - 6 * WEEK);
  const end = periodEnd(start);
  for (const table of MAIL_TABLES) {
    const p = periodOf({ table, idPrefix: '' }, start);
    await sql(s, 'select postbox_partition_attach(?, ?, ?, ?)', [table, p.name, p.lo, p.hi]);
  }
  const sent = await mailAt(start + DAY, 'sent', new Date(start + 8 * DAY));
  const scheduled = await mailAt(start + 2 * DAY, 'scheduled', new Date(start + 9 * DAY));
  const hold = mailHoldMs(s.app.services.config, LIMITS.scheduleHours);
  const mailDropped = async (atMs: number) =>
    (await purgeExpired(s.app.services, { now: new Date(atMs) })).partitions.dropped.filter((n) => MAIL_TABLES.some((t) => n === week(t, start)));
  // Before the hold has passed: kept, though both are past their purge_after.
  expect(await mailDropped(end + hold - 3_600_000)).toEqual([]);
  // After it: kept while the schedule waits.
  expect(await mailDropped(end + hold + 3_600_000)).toEqual([]);
  await sql(s, `update messages set status = 'cancelled' where id = ?`, [scheduled]);
  // Kept while a message's own retention runs.
  await sql(s, `update messages set purge_after = ? where id = ?`, [new Date(end + hold + DAY), sent]);
  expect(await mailDropped(end + hold + 3_600_000)).toEqual([]);
  const dropped = await mailDropped(end + hold + 2 * DAY);
  expect(dropped.sort()).toEqual(MAIL_TABLES.map((t) => week(t, start)).sort());
  expect(await sql(s, 'select id from messages where id in (?, ?)', [sent, scheduled])).toEqual([]);
});

it('purges a message of the default partition by rows, with its emails, attachments, activities and captured copies', async () => {
  const { messageId, emailId } = await sendWithAttachment();
  // Ids of no week (written before the mail was partitioned) live in the default partitions.
  const old = `zz${messageId.slice(2)}`;
  const oldEmail = `zz${emailId.slice(2)}`;
  const columns = async (table: string) => (await sql<{ c: string }>(s, `select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as c from information_schema.columns where table_name = ? and is_generated = 'NEVER'`, [table]))[0].c;
  /** A copy of a row, some of its columns replaced by SQL expressions. */
  const moved = async (table: string, column: string, key: string, replace: Record<string, string>) => {
    const cols = (await columns(table)).split(', ');
    const select = cols.map((c) => (replace[c.replaceAll('"', '')] ? `${replace[c.replaceAll('"', '')]} as ${c}` : c)).join(', ');
    await sql(s, `insert into ${table} (${cols.join(', ')}) select ${select} from ${table} where ${column} = ?`, [key]);
  };
  await moved('messages', 'id', messageId, { id: `'${old}'`, purge_after: `now() - interval '1 day'` });
  await moved('emails', 'id', emailId, { id: `'${oldEmail}'`, message_id: `'${old}'` });
  await moved('message_attachments', 'message_id', messageId, { id: `'zz' || substr(id, 3)`, message_id: `'${old}'` });
  await moved('activities', 'email_id', emailId, { id: `'zz' || substr(id, 3)`, email_id: `'${oldEmail}'` });
  await moved('captured_mails', 'email_id', emailId, { id: `'zz' || substr(id, 3)`, email_id: `'${oldEmail}'` });
  const parts = await partsOf(oldEmail, old);
  expect(parts.length).toBeGreaterThanOrEqual(6);
  expect(new Set(parts)).toEqual(new Set(MAIL_TABLES.map((t) => `${t}_default`)));

  const work = await purgeExpired(s.app.services);
  expect(work.deleted.messages).toBeGreaterThanOrEqual(1);
  expect(await partsOf(oldEmail, old)).toEqual([]);
  // The send it was copied from, in its week and young, is whole.
  expect((await partsOf(emailId, messageId)).length).toBe(parts.length);
});

it("deletes a domain's mail, in every table, with the domain", async () => {
  const other = await seedDomain(s, { dkim: true });
  const { messageId, emailId } = await sendWithAttachment(other);
  expect((await partsOf(emailId, messageId)).length).toBeGreaterThanOrEqual(6);
  expect((await s.rest('DELETE', `/domains/${other.id}`)).status).toBe(204);
  expect(await partsOf(emailId, messageId)).toEqual([]);
});

it("has the database make an instant's id prefix as the service does (the activity list bounds its weeks with it)", async () => {
  for (const at of [Date.UTC(2020, 0, 1), Date.UTC(2026, 10, 29, 3, 4, 5), Date.now(), Date.UTC(2031, 5, 1, 23, 59, 59)]) {
    const [{ prefix }] = await sql<{ prefix: string }>(s, 'select postbox_id_prefix(?::timestamptz) as prefix', [new Date(at).toISOString()]);
    expect(prefix).toBe(sortablePrefix(at));
  }
  // A date filter may name any instant: the prefix stays within the six characters.
  const held = await sql<{ early: string; late: string }>(s, "select postbox_id_prefix('1970-01-01') as early, postbox_id_prefix('2200-01-01') as late");
  expect(held[0]).toEqual({ early: '000000', late: 'zzzzzz' });
});
