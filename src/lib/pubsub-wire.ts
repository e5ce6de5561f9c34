import pg from 'pg';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (and the whole statement with it):
 * such a notice is dropped alone, so that it cannot take the others of its batch down.
 */
export const PAYLOAD_MAX = 7999;

/** At most this many notices per statement; the rest go in the next one. */
const BATCH_MAX = 500;

/** Notices waiting while the database is away are dropped past this many (live events may be lost). */
const QUEUE_MAX = 10_000;

/**
 * Sends NOTIFYs in batches on the pubsub's own pool: one `pg_notify` statement per `flushMs` (and
 * one in flight at a time), never inside a caller's transaction. PostgreSQL serialises notifying
 * commits through their flush, so a hundred notices sent by one statement cost one such commit
 * where a hundred notifying transactions queued behind each other.
 */
export class Outbox {
  private queue: { channel: string; payload: string }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly flushMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  push(channel: string, payload: string): void {
    if (Buffer.byteLength(payload) > PAYLOAD_MAX) {
      this.onError(new Error(`NOTIFY payload over ${PAYLOAD_MAX} bytes dropped (${payload.slice(0, 80)}...)`));
      return;
    }
    if (this.queue.length >= QUEUE_MAX) this.queue.shift();
    this.queue.push({ channel, payload });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.inFlight) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.flush().finally(() => {
        this.inFlight = null;
        if (this.queue.length) this.schedule();
      });
    }, this.flushMs);
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, BATCH_MAX);
    if (!batch.length) return;
    try {
      await this.pool.query('select pg_notify(c, p) from unnest($1::text[], $2::text[]) as x(c, p)', [
        batch.map((b) => b.channel),
        batch.map((b) => b.payload),
      ]);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Sends what is queued (a closing process does not drop the notices of its last commits). */
  async drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    while (this.queue.length) await this.flush();
  }
}

/**
 * The one LISTEN connection, which comes back by itself when PostgreSQL restarts or the
 * connection drops: it reconnects with a growing pause (up to 5 s) and without a deadline, and
 * probes the connection every 10 s so that a silently dead one is noticed. Notifications sent
 * while it is down are lost (NOTIFY keeps no backlog): live subscribers miss those events and keep
 * receiving the later ones. `epoch` counts the connections made and is 0 while none is up, so a
 * cache that relies on NOTIFY invalidations can trust only what it read during the current one.
 * pg-listen does this too, but keeps reconnecting after close().
 */
export class Listener {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly probe: NodeJS.Timeout;
  private connections = 0;

  constructor(
    private readonly url: string,
    private readonly channels: string[],
    private readonly onPayload: (channel: string, payload: string) => void,
    private readonly onConnected: () => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.probe = setInterval(() => this.client?.query('select 1').catch(() => undefined), 10_000);
    this.probe.unref();
  }

  get epoch(): number {
    return this.client ? this.connections : 0;
  }

  /** The first connection must succeed: a service that cannot reach its database does not start. */
  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (n) => this.onPayload(n.channel, n.payload ?? '{}'));
    client.on('error', (err) => {
      this.onError(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    if (this.closed) return void (await client.end().catch(() => undefined));
    this.client = client;
    this.connections++;
    this.onConnected();
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
