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

export interface ClosablePubSub extends PubSub {
  close(): Promise<void>;
}

export async function createPgPubSub(url: string, onError: (err: unknown) => void): Promise<ClosablePubSub> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const listener = new pg.Client({ connectionString: url });
  const target = new PgEventTarget(pool, onError);
  listener.on('notification', (n) => {
    try {
      const { topic, detail } = JSON.parse(n.payload ?? '{}');
      target.deliver(topic, detail);
    } catch (err) {
      onError(err);
    }
  });
  listener.on('error', onError);
  await listener.connect();
  await listener.query(`LISTEN ${CHANNEL}`);
  const pubsub = createPubSub({ eventTarget: target as never });
  return {
    publish: (routingKey: string, ...args: unknown[]) => pubsub.publish(routingKey, ...(args as [])),
    subscribe: (routingKey: string, dynamicId?: unknown) =>
      (dynamicId === undefined ? pubsub.subscribe(routingKey) : pubsub.subscribe(routingKey, dynamicId as never)) as never,
    async close() {
      await listener.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
