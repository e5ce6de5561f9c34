import pg from 'pg';
import { createPubSub } from '@graphql-yoga/subscription';
import type { PubSub } from 'type-graphql';

/** The one NOTIFY channel; SQL may notify on it directly (`{topic, detail}` as JSON text). */
export const CHANNEL = 'postbox_events';

/**
 * An EventTarget whose events travel through Postgres NOTIFY, so a subscriber in the API process
 * hears what a worker process published. One dedicated connection LISTENs.
 */
class PgEventTarget extends EventTarget {
  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (err: unknown) => void,
  ) {
    super();
  }

  override dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.pool
      .query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic: event.type, detail })])
      .catch(this.onError);
    return true;
  }

  deliver(topic: string, detail: unknown) {
    super.dispatchEvent(new CustomEvent(topic, { detail }));
  }
}

/** What type-graphql publishes: `(topic, payload)` or `(topic, id, payload)`, any topic name. */
type Topics = Record<string, [unknown] | [string | number, unknown]>;

export interface ClosablePubSub extends PubSub {
  close(): Promise<void>;
}

/**
 * The one LISTEN connection, which comes back by itself when PostgreSQL restarts or the
 * connection drops: it reconnects with a growing pause (up to 5 s) and without a deadline, and
 * probes the connection every 10 s so that a silently dead one is noticed. Notifications sent
 * while it is down are lost (NOTIFY keeps no backlog): live subscribers miss those events and keep
 * receiving the later ones. pg-listen does this too, but keeps reconnecting after close().
 */
class Listener {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly probe: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly onPayload: (payload: string) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.probe = setInterval(() => this.client?.query('select 1').catch(() => undefined), 10_000);
    this.probe.unref();
  }

  /** The first connection must succeed: a service that cannot reach its database does not start. */
  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (n) => this.onPayload(n.payload ?? '{}'));
    client.on('error', (err) => {
      this.onError(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    if (this.closed) return void (await client.end().catch(() => undefined));
    this.client = client;
  }

  private lost(client: pg.Client, attempt = 1) {
    if (this.closed || (this.client !== client && attempt === 1)) return;
    this.client = null;
    client.removeAllListeners('end');
    this.retry = setTimeout(() => {
      this.connect().catch(() => this.lost(client, attempt + 1));
    }, Math.min(5000, 250 * attempt));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }
}

export async function createPgPubSub(url: string, onError: (err: unknown) => void): Promise<ClosablePubSub> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // An idle pooled connection cut by a restart errors on the pool, not on a query: without a
  // listener that error would crash the process.
  pool.on('error', onError);
  const target = new PgEventTarget(pool, onError);
  const listener = new Listener(
    url,
    (payload) => {
      try {
        const { topic, detail } = JSON.parse(payload);
        target.deliver(topic, detail);
      } catch (err) {
        onError(err);
      }
    },
    onError,
  );
  await listener.connect();
  const pubsub = createPubSub<Topics>({ eventTarget: target });
  return {
    publish: (routingKey: string, ...args: unknown[]) => pubsub.publish(routingKey, ...(args as Topics[string])),
    // An undefined id subscribes to the bare topic, as if none were given (yoga's createPubSub).
    subscribe: (routingKey: string, dynamicId?: unknown) => pubsub.subscribe(routingKey, dynamicId),
    async close() {
      await listener.close();
      await pool.end().catch(() => undefined);
    },
  };
}
