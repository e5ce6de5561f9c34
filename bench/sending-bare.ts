/**
 * bench:sending's baselines, in the bench's own process: the bare acceptance routes (the same
 * writes as the service, without it) and the bare delivery loop (the same signed messages, through
 * one pooled nodemailer transport).
 */
import Fastify from 'fastify';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { newId } from '../src/lib/ids.js';
import { buildMime } from '../src/engines/delivery/mime.js';
import type { startSmtpSink } from '../test/support/smtp-sink.js';

interface SendBody {
  from: { email: string; name: string };
  to: { email: string; name: string }[];
  subject: string;
  html: string;
  text: string;
}

const INSERT_MESSAGE = `insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, from_name, cc, bcc, subject, text, html,
     tags, personalization, settings, headers, "references", purge_after, status)
   values ($1, $2, $2, $3, $4, $5, $6, '[]', '[]', $7, $8, $9, '{}', '{}', '{}', '[]', '[]', $2::timestamptz + interval '30 days', 'queued')`;

/**
 * Two routes on one bare fastify server with its own pg Pool (10, the service's pool size):
 * `/send` replays the writes of an accepted send (message, recipient upsert, email, the pg-boss job
 * through pg-boss itself, the `queued` activity with its daily rollup) as separate statements in
 * one transaction; `/single` does one INSERT of the message.
 */
export async function startBareRoutes(dbUrl: string, accountId: string, domainId: string) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 10 });
  const boss = new PgBoss({ connectionString: dbUrl, schema: 'pgboss', max: 2, supervise: false, schedule: false, migrate: false });
  await boss.start();
  const server = Fastify();
  const messageArgs = (b: SendBody, id: string, now: Date) => [id, now, accountId, domainId, b.from.email, b.from.name, b.subject, b.text, b.html];
  server.post('/single', async (req, reply) => {
    const messageId = newId(24);
    await pool.query(INSERT_MESSAGE, messageArgs(req.body as SendBody, messageId, new Date()));
    reply.code(202).header('x-message-id', messageId).type('text/plain; charset=utf-8').send('');
  });
  server.post('/send', async (req, reply) => {
    const b = req.body as SendBody;
    const now = new Date();
    const to = b.to[0];
    const messageId = newId(24);
    const emailId = newId();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(INSERT_MESSAGE, messageArgs(b, messageId, now));
      const { rows } = await client.query<{ id: string }>(
        `insert into recipients (id, created_at, updated_at, account_id, domain_id, email) values ($1, $2, $2, $3, $4, $5)
         on conflict (domain_id, email) do update set deleted_at = null, updated_at = excluded.updated_at returning id`,
        [newId(), now, accountId, domainId, to.email],
      );
      await client.query(
        `insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, position, to_email, to_name, subject, tags, status)
         values ($1, $2, $2, $3, $4, $5, $6, 0, $7, $8, $9, '{}', 'queued')`,
        [emailId, now, accountId, domainId, messageId, rows[0].id, to.email, to.name, b.subject],
      );
      await boss.send('email.deliver', { message_id: messageId }, { db: { executeSql: (text, values) => client.query(text, values) } });
      await client.query(
        `with acts as (insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data)
           values ($1, $2, $2, $3, $4, $5, 'queued', '{}'))
         insert into activity_stats (account_id, day, hour, domain_id, type, tags, country, ua_name, ua_type, shard, count)
         values ($3, $2::date, extract(hour from $2::timestamptz at time zone 'UTC')::smallint, $4, 'queued', '{}', '', '', '', abs(hashtext($5)) % 8, 1)
         on conflict (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard, hour)
           do update set count = activity_stats.count + excluded.count`,
        [newId(), now, accountId, domainId, emailId],
      );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    reply.code(202).header('x-message-id', messageId).type('text/plain; charset=utf-8').send('');
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/send`,
    singleInsertUrl: `http://127.0.0.1:${port}/single`,
    close: async () => {
      await server.close();
      await boss.stop({ graceful: false });
      await pool.end();
    },
  };
}

/**
 * The delivery baseline: `n` messages like the bench's sends, each built and DKIM-signed by the
 * service's MIME builder, sent through one pooled nodemailer transport (5 connections, 20 messages
 * in flight) to the sink. Times until the sink holds them all.
 */
export async function pooledNodemailerLoop(
  sink: Awaited<ReturnType<typeof startSmtpSink>>,
  n: number,
  from: string,
  dkim: { domainName: string; keySelector: string; privateKey: string },
) {
  const transport = nodemailer.createTransport({ pool: true, host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true, maxConnections: 5, maxMessages: Infinity });
  const start = sink.received.length;
  const t0 = performance.now();
  let next = 0;
  const one = async () => {
    while (next < n) {
      const i = next++;
      const { raw, envelope } = await buildMime({
        messageId: `<bare-${i}@${dkim.domainName}>`,
        from: { email: from, name: 'Bench' },
        to: { email: `bare${i}@example.net`, name: 'Reader' },
        cc: [],
        bcc: [],
        replyTo: null,
        subject: 'Your receipt',
        html: '<p>Hello, here is <a href="https://example.com/r">your receipt</a>.</p>',
        text: 'Hello, here is your receipt: https://example.com/r',
        attachments: [],
        headers: [],
        inReplyTo: null,
        references: [],
        listUnsubscribe: null,
        oneClick: false,
        precedenceBulk: false,
        returnPath: `bounces@${dkim.domainName}`,
        dkim,
      });
      await transport.sendMail({ envelope, raw });
    }
  };
  await Promise.all(Array.from({ length: 20 }, one));
  while (sink.received.length - start < n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - t0) / 1000;
  transport.close();
  return { seconds, perS: Math.round(n / seconds) };
}
