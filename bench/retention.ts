/**
 * How fast does the retention purge delete, and what does batching cost against one plain delete?
 * One run on a throwaway embedded PostgreSQL: N messages past their purge_after (default 100,000),
 * each with one email and two activities (4 rows per message), are deleted by the purge as the job
 * runs it (purgeExpired: RETENTION_PURGE_BATCH messages per statement, cascading to emails and
 * activities); then the same rows are made again and deleted by one
 * `DELETE FROM messages WHERE created_at < x` (the same cascade, one statement, one transaction).
 * Then two past weeks of the partitioned webhook log (webhook_attempts), one of a tenth of
 * `messages` attempts and one of `messages` attempts, each dropped whole by the statement the
 * job's partition work (maintainPartitions) drops a week with: its time should not grow with the
 * rows it drops. Then two past weeks of mail (messages with an email, two activities and an
 * attachment each, in the five mail tables), of the same two sizes, each dropped by the job's
 * partition work (maintainPartitions: the week's indexes asked whether it holds mail to keep, then
 * its five partitions dropped).
 * Ends with one line `BENCH {...}`: rows/s of both and their ratio (purge ÷ plain), and each pair
 * of drops' milliseconds with their ratio (large ÷ small).
 * Usage: npm run bench:retention [-- messages [batch]]
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrm, migrate } from '../src/db/orm.js';
import { entities } from '../src/roles/tables.js';
import { parseConfig } from '../src/config/index.js';
import type { AppServices } from '../src/core/services.js';
import { purgeExpired } from '../src/modules/retention/retention.purge.js';
import { printBench, startDb } from './service.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { periodOf, periodStart, PARTITION_DAYS } from '../src/db/partitions.js';
import { PartitionRepository } from '../src/modules/retention/partition.repository.js';
import { mailHoldMs, maintainPartitions, MAIL_TABLES } from '../src/modules/retention/partitions.js';

const messages = Number(process.argv[2] ?? 100_000);
const batch = Number(process.argv[3] ?? 5000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-retention-'));
const database = await startDb(dir);
const orm = await createOrm(database.url, entities, 4);
await migrate(orm);
const sql = (q: string) => orm.em.fork().getConnection().execute(q);

await sql(`insert into accounts (id, created_at, updated_at, name, plan) values ('acc', now(), now(), 'Bench', 'free')`);
await sql(`insert into domains (id, created_at, updated_at, account_id, name, dkim_selector, dkim_public_key, dkim_private_key_enc, settings)
           values ('dom', now(), now(), 'acc', 'retention.example.com', 'pb1', 'x', 'x', '{}')`);
await sql(`insert into recipients (id, created_at, updated_at, account_id, domain_id, email) values ('rcpt', now(), now(), 'acc', 'dom', 'r@example.net')`);

/** N sent messages from 30 days ago (purge_after 23 days ago), each with one email and two activities. */
async function fill(): Promise<void> {
  await sql(`insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, cc, bcc, subject, text, html, tags,
               personalization, settings, headers, "references", status, purge_after)
             select 'm' || g, now() - interval '30 days', now() - interval '30 days', 'acc', 'dom', 'a@retention.example.com', '[]', '[]',
               'Subject ' || g, repeat('text ', 40), repeat('<p>html</p>', 40), '{}', '{}', '{}', '[]', '[]', 'sent', now() - interval '23 days'
             from generate_series(1, ${messages}) g`);
  await sql(`insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, to_email, subject, tags, status)
             select 'e' || g, now() - interval '30 days', now() - interval '30 days', 'acc', 'dom', 'm' || g, 'rcpt', 'r@example.net', 'Subject', '{}', 'delivered'
             from generate_series(1, ${messages}) g`);
  await sql(`insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data)
             select 'a' || g || t, now() - interval '30 days', now() - interval '30 days', 'acc', 'dom', 'e' || g, t, '{}'
             from generate_series(1, ${messages}) g, unnest(array['queued', 'delivered']) t`);
  await sql('vacuum analyze messages, emails, activities');
}

const ROWS = messages * 4;
await fill();
const services = { config: parseConfig({ RETENTION_PURGE_BATCH: String(batch), RETENTION_PURGE_SECONDS: '3000' }), orm } as unknown as AppServices;
let started = performance.now();
const result = await purgeExpired(services);
const purgeSeconds = (performance.now() - started) / 1000;
if (result.deleted.messages !== messages || !result.done) throw new Error(`purge deleted ${JSON.stringify(result)}`);

await fill();
started = performance.now();
await sql(`delete from messages where created_at < now() - interval '1 day'`);
const plainSeconds = (performance.now() - started) / 1000;
const [{ n }] = (await sql('select (select count(*) from messages) + (select count(*) from emails) + (select count(*) from activities) as n')) as { n: string }[];
if (Number(n) !== 0) throw new Error(`plain delete left ${n} rows`);

/** A past week of the webhook log holding `rows` attempts; answers its partition's name. */
const ATTEMPTS = { table: 'webhook_attempts', idPrefix: '' };
const partitions = () => new PartitionRepository(orm.em.fork() as EntityManager);
async function pastWeek(weeksAgo: number, rows: number): Promise<string> {
  const week = periodOf(ATTEMPTS, periodStart(Date.now() - weeksAgo * PARTITION_DAYS * 86_400_000));
  await partitions().attach(ATTEMPTS.table, week);
  await sql(`insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt)
             select '${week.lo}' || lpad(g::text, 10, '0'), 'hook', 'msg_' || g, 'activity.delivered', now(), true, 200, 20, repeat('ok ', 30)
             from generate_series(1, ${rows}) g`);
  await sql(`vacuum analyze webhook_attempts`);
  return week.name;
}
/** The statement the job's partition work (maintainPartitions) drops a week with: its milliseconds. */
async function drop(name: string): Promise<number> {
  const t0 = performance.now();
  await partitions().drop(ATTEMPTS.table, name);
  const ms = performance.now() - t0;
  if ((await partitions().partitions(ATTEMPTS.table)).includes(name)) throw new Error(`${name} was not dropped`);
  return ms;
}
const smallRows = Math.max(1, Math.round(messages / 10));
const small = await pastWeek(40, smallRows);
const large = await pastWeek(30, messages);
const dropSmallMs = await drop(small);
const dropLargeMs = await drop(large);
console.log(`partition drop: a week of ${smallRows} attempts in ${dropSmallMs.toFixed(1)} ms, a week of ${messages} in ${dropLargeMs.toFixed(1)} ms`);

/**
 * A past week of mail holding `rows` sent messages past their retention, each with one email, two
 * activities and an attachment, in the weeks of all five mail tables; answers the week's start.
 */
async function pastMailWeek(weeksAgo: number, rows: number): Promise<number> {
  const start = periodStart(Date.now() - weeksAgo * PARTITION_DAYS * 86_400_000);
  for (const table of MAIL_TABLES) await partitions().attach(table, periodOf({ table, idPrefix: '' }, start));
  const lo = periodOf({ table: 'messages', idPrefix: '' }, start).lo;
  const at = `'${new Date(start).toISOString()}'::timestamptz`;
  await sql(`insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, cc, bcc, subject, text, html, tags,
               personalization, settings, headers, "references", status, purge_after)
             select '${lo}' || lpad(g::text, 18, '0'), ${at}, ${at}, 'acc', 'dom', 'a@retention.example.com', '[]', '[]',
               'Subject ' || g, repeat('text ', 40), repeat('<p>html</p>', 40), '{}', '{}', '{}', '[]', '[]', 'sent', ${at} + interval '7 days'
             from generate_series(1, ${rows}) g`);
  await sql(`insert into message_attachments (id, message_id, position, filename, disposition, content)
             select '${lo}' || lpad(g::text, 10, '0'), '${lo}' || lpad(g::text, 18, '0'), 0, 'a.txt', 'attachment', convert_to(repeat('a', 200), 'UTF8')
             from generate_series(1, ${rows}) g`);
  await sql(`insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, to_email, subject, tags, status)
             select '${lo}' || lpad(g::text, 10, '0'), ${at}, ${at}, 'acc', 'dom', '${lo}' || lpad(g::text, 18, '0'), 'rcpt', 'r@example.net', 'Subject', '{}', 'delivered'
             from generate_series(1, ${rows}) g`);
  await sql(`insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data)
             select '${lo}' || lpad(g::text, 9, '0') || t, ${at}, ${at}, 'acc', 'dom', '${lo}' || lpad(g::text, 10, '0'), t, '{}'
             from generate_series(1, ${rows}) g, unnest(array['q', 'd']) t`);
  await sql('vacuum analyze messages, emails, activities, message_attachments');
  return start;
}
/** The job's partition work dropping the oldest weeks of mail (each checked through its indexes first): its milliseconds, and what it dropped. */
async function dropMail(): Promise<[number, string[]]> {
  const em = orm.em.fork() as EntityManager;
  const t0 = performance.now();
  const work = await maintainPartitions(em, new Date(), { free: 7 }, mailHoldMs(services.config, 72));
  return [performance.now() - t0, work.dropped.filter((name) => MAIL_TABLES.some((t) => name.startsWith(`${t}_p`)))];
}
await dropMail(); // makes the weeks ahead: the runs timed below only drop
await pastMailWeek(40, smallRows);
const [mailSmallMs, smallDropped] = await dropMail();
await pastMailWeek(30, messages);
const [mailLargeMs, largeDropped] = await dropMail();
if (smallDropped.length !== MAIL_TABLES.length || largeDropped.length !== MAIL_TABLES.length) throw new Error(`mail weeks dropped: ${smallDropped} / ${largeDropped}`);
console.log(`mail week drop: ${smallRows} messages in ${mailSmallMs.toFixed(1)} ms, ${messages} in ${mailLargeMs.toFixed(1)} ms`);

await orm.close();
await database.stop();
rmSync(dir, { recursive: true, force: true });
const purgeRate = Math.round(ROWS / purgeSeconds);
const plainRate = Math.round(ROWS / plainSeconds);
console.log(`purge: ${messages} messages (${ROWS} rows) in ${purgeSeconds.toFixed(2)} s, ${purgeRate} rows/s, batches of ${batch}`);
console.log(`plain delete: the same rows in ${plainSeconds.toFixed(2)} s, ${plainRate} rows/s`);
printBench({
  messages,
  rows: ROWS,
  batch,
  purge_rows_per_s: purgeRate,
  plain_rows_per_s: plainRate,
  ratio: Math.round((purgeRate / plainRate) * 100) / 100,
  drop_small_ms: Math.round(dropSmallMs * 10) / 10,
  drop_large_ms: Math.round(dropLargeMs * 10) / 10,
  drop_ratio: Math.round((dropLargeMs / dropSmallMs) * 100) / 100,
  mail_drop_small_ms: Math.round(mailSmallMs * 10) / 10,
  mail_drop_large_ms: Math.round(mailLargeMs * 10) / 10,
  mail_drop_ratio: Math.round((mailLargeMs / mailSmallMs) * 100) / 100,
  mail_drop_vs_purge: Math.round((mailLargeMs / (purgeSeconds * 1000)) * 1000) / 1000,
});
