import { OPERATOR_TOKEN, type TestServer } from '../support/server.js';

/** Rows straight from the database, for what no public surface shows yet. */
export async function sql<T = any>(s: TestServer, query: string, params: unknown[] = []): Promise<T[]> {
  return s.app.services.orm.em.fork().execute(query, params) as Promise<T[]>;
}

export async function setPlan(s: TestServer, accountId: string, plan: string): Promise<void> {
  const res = await s.gql(
    `mutation($a: ID!, $p: String!) { operator_set_plan(account_id: $a, plan: $p) { id } }`,
    { a: accountId, p: plan },
    OPERATOR_TOKEN,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
}

/** Polls until `probe` returns something truthy (default 10 s). */
export async function until<T>(probe: () => Promise<T | null | undefined | false>, ms = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const emailsOf = (s: TestServer, messageId: string) =>
  sql<{ id: string; to_email: string; status: string; suppression_reason: string | null; subject: string; smtp_message_id: string | null }>(
    s,
    'select * from emails where message_id = ? order by position',
    [messageId],
  );

export const activityOf = (s: TestServer, emailId: string) =>
  sql<{ type: string; suppression_reason: string | null; data: any }>(s, 'select * from activities where email_id = ? order by created_at, id', [emailId]).then(
    (rows) => rows.map((r) => r.type),
  );

/** Waits until every email of the message is in a final state; returns them. */
export function settled(s: TestServer, messageId: string, ms = 10_000) {
  return until(
    async () => {
      const rows = await emailsOf(s, messageId);
      return rows.length && rows.every((r) => !['queued', 'scheduled', 'paused', 'deferred'].includes(r.status)) ? rows : null;
    },
    ms,
    `message ${messageId} to settle`,
  );
}

/**
 * How many delivery jobs the messages have, wherever each one is: in the job outbox (written with
 * the send) or in pg-boss (moved there by a worker's relay). One statement reads both in one
 * snapshot, and a move is one transaction, so a job being moved is counted once.
 */
export async function deliveryJobs(s: TestServer, messageIds: string[]): Promise<number> {
  const [{ n }] = await sql<{ n: number }>(
    s,
    `select ((select count(*) from job_outbox where queue = 'email.deliver' and data->>'message_id' in (?))
          + (select count(*) from pgboss.job where name = 'email.deliver' and data->>'message_id' in (?)))::int as n`,
    [messageIds, messageIds],
  );
  return n;
}

/** `total` sends from `domain`, each accepted (202): from `<tag>@domain` to `<tag><i>@example.net`, subject `<tag><i>`. Answers their message ids. */
export async function acceptBacklog(s: TestServer, domain: { name: string }, total: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < total; i++) {
    const res = await s.rest('POST', '/email', {
      body: { from: { email: `${tag}@${domain.name}` }, to: [{ email: `${tag}${i}@example.net` }], subject: `${tag}${i}`, text: 'x' },
    });
    if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${res.text}`);
    ids.push(res.headers.get('x-message-id')!);
  }
  return ids;
}

/**
 * Once `delivered()` reaches `after`, the sink holds what comes next for `holdMs` (a message held
 * before keeps its short hold: it ends first); resolves once a message is held, that is while the
 * worker is mid-batch with one in flight, and `more()` still holds.
 */
export async function holdMidBatch(
  sink: { holdMs: number; holding: number },
  delivered: () => number,
  after: number,
  holdMs: number,
  more: () => boolean = () => true,
): Promise<void> {
  await until(async () => delivered() >= after, 30_000, 'some messages delivered');
  sink.holdMs = holdMs;
  await new Promise((r) => setTimeout(r, 300));
  await until(async () => sink.holding > 0 && more(), 30_000, 'the worker to be mid-batch');
}
