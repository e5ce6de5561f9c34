import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { z } from 'zod';
import { inClientTransaction } from '../db/sql.js';
import { Listener } from '../lib/pubsub-wire.js';
import type { JobDefinition } from './job.js';

/**
 * The job outbox (table `job_outbox`, Migration20261128200000_job_outbox): a statement that causes
 * jobs writes their rows there, in the same statement as what causes them (the acceptance
 * statement: one round trip, and the job exists if and only if the send commits), and a relay in
 * each worker process moves them into pg-boss through its public API (`insert` bound to the
 * relay's own transaction). Nothing of ours writes pg-boss's tables or embeds its SQL, so a
 * release of pg-boss that changes them cannot break sending.
 */

/** The NOTIFY channel on which a statement that wrote outbox rows wakes the relays. */
export const OUTBOX_CHANNEL = 'postbox_job_outbox';

/** One outbox row as a writing statement takes it (outboxRows); `start_after` null is now. */
interface OutboxRow {
  queue: string;
  data: unknown;
  start_after: string | null;
}

/**
 * The rows of `job` for each of `data`, as the JSON text outboxInsert's parameter takes. The data
 * is checked against the job's schema here, so a producer's bug fails its own write, not a worker
 * later, and what the schema keeps is what is queued.
 */
export function outboxRows<S extends z.ZodObject>(job: JobDefinition<S>, data: z.input<S>[], options: { startAfter?: Date } = {}): string {
  const start_after = options.startAfter?.toISOString() ?? null;
  return JSON.stringify(data.map((d): OutboxRow => ({ queue: job.name, data: job.schema.parse(d), start_after })));
}

/** The CTE `name` that writes the outbox rows read from `param` (a jsonb expression of outboxRows' text). */
export function outboxInsert(name: string, param: string): string {
  return `${name} as (
    insert into job_outbox (queue, data, start_after)
    select queue, data, start_after from jsonb_to_recordset(${param}) as x(queue text, data jsonb, start_after timestamptz)
    returning id
  )`;
}

/**
 * A select-list expression to evaluate after outboxInsert's CTE `name`: wakes the relays when it
 * wrote a row. A scheduled row wakes them too: it is moved at once and pg-boss holds it until its
 * time, so a send due in a moment does not wait for the relay's poll. PostgreSQL sends one notice
 * per transaction for a channel and payload however many statements notify.
 */
export function outboxWake(name: string): string {
  return `(select count(pg_notify('${OUTBOX_CHANNEL}', '')) from (select 1 from ${name} limit 1) w)`;
}

/** Taken rows leave the outbox only if the transaction that queues their jobs commits. */
const TAKE = `delete from job_outbox where id in (
    select id from job_outbox where queue = any($2::text[]) order by id limit $1 for update skip locked
  ) returning queue, data, start_after`;

/** What the relay's connections are called in pg_stat_activity. */
export const OUTBOX_RELAY_NAME = 'postbox_job_outbox_relay';

/** Rows per move: one pg-boss insert statement each, short enough not to hold the rows' locks long. */
const BATCH = 500;
/** NOTIFY and reconnections wake the relay; the poll only catches what they missed. */
const POLL_MS = 10_000;

/** The database URL with the relay's name for its connections; a connection string of another form as it is. */
function namedUrl(url: string): string {
  try {
    const named = new URL(url);
    named.searchParams.set('application_name', OUTBOX_RELAY_NAME);
    return named.toString();
  } catch {
    return url;
  }
}

export interface OutboxRelayOptions {
  /** The database, for the LISTEN connection and the relay's own pool of one connection. */
  url: string;
  boss: PgBoss;
  /** The queues this process created: rows of any other (a newer release's) wait for a relay that knows it. */
  queues: readonly string[];
  /** Rows moved per transaction. */
  batch?: number;
  /** Wakes this process's workers of the queues whose jobs a move queued (other processes' workers poll). */
  wake(queues: string[]): void;
  /** The safety poll: a wake lost all the same (an insert that failed, a notice missed) is retried this often. */
  pollMs?: number;
  onError(err: unknown): void;
}

/**
 * Moves outbox rows into pg-boss, oldest first, in batches: each one transaction that deletes the
 * rows it takes (`for update skip locked`, so relays of several processes take disjoint rows and
 * none waits on another) and inserts their jobs with pg-boss's `db` option bound to it, so a row
 * leaves the outbox if and only if its job exists. Woken by NOTIFY, on every (re)connection of
 * its LISTEN connection (rows written while it was down, or before the process started), and by
 * the poll. Wakes during a move coalesce into one more pass.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly listener: Listener;
  private readonly poll: NodeJS.Timeout;
  private readonly batch: number;
  private moving: Promise<void> | null = null;
  private again = false;
  private closed = false;

  private constructor(private readonly opts: OutboxRelayOptions) {
    this.batch = opts.batch ?? BATCH;
    const url = namedUrl(opts.url);
    this.pool = new pg.Pool({ connectionString: url, max: 1 });
    // An idle connection cut by a database restart errors on the pool: without a listener it would end the process.
    this.pool.on('error', opts.onError);
    this.listener = new Listener(url, [OUTBOX_CHANNEL], () => this.wake(), () => this.wake(), opts.onError);
    this.poll = setInterval(() => this.wake(), opts.pollMs ?? POLL_MS);
    this.poll.unref();
  }

  /** Starts listening, and moves what the outbox already holds (test/sending/outbox.test.ts). */
  static async start(opts: OutboxRelayOptions): Promise<OutboxRelay> {
    const relay = new OutboxRelay(opts);
    try {
      await relay.listener.connect();
    } catch (err) {
      await relay.close();
      throw err;
    }
    return relay;
  }

  wake(): void {
    if (this.closed) return;
    if (this.moving) {
      this.again = true;
      return;
    }
    this.moving = this.drain()
      .catch((err: unknown) => this.opts.onError(err))
      .finally(() => {
        this.moving = null;
        if (this.again) this.wake();
      });
  }

  private async drain(): Promise<void> {
    this.again = false;
    // A full batch says more may wait; a short one that the outbox is empty, or what is left is another relay's.
    while (!this.closed && (await this.moveBatch()) === this.batch);
  }

  /** One batch: how many rows it moved. Batches go oldest first; within one, the jobs share their creation time. */
  private async moveBatch(): Promise<number> {
    const byQueue = new Map<string, { data: object; startAfter?: Date }[]>();
    const moved = await inClientTransaction(this.pool, 'begin', async (client) => {
      const { rows } = await client.query<{ queue: string; data: object; start_after: Date | null }>(TAKE, [this.batch, this.opts.queues]);
      for (const r of rows) {
        const jobs = byQueue.get(r.queue) ?? byQueue.set(r.queue, []).get(r.queue)!;
        jobs.push(r.start_after ? { data: r.data, startAfter: r.start_after } : { data: r.data });
      }
      const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
      for (const [queue, jobs] of byQueue) await this.opts.boss.insert(queue, jobs, { db });
      return rows.length;
    });
    // This process's workers of the queues just filled fetch now rather than at their next poll.
    if (byQueue.size) this.opts.wake([...byQueue.keys()]);
    return moved;
  }

  /** Stops waking, lets a move under way finish its batch, and closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    await this.listener.close();
    await this.moving;
    await this.pool.end().catch(() => undefined);
  }
}
