import type { Transporter } from 'nodemailer';

/** A pool unused for this long is closed (its connections are then idle anyway). */
const IDLE_MS = 60_000;

/**
 * One pooled nodemailer transport per destination (MX address, the name its TLS certificate is
 * checked for, and whether it is checked), made on first use: messages to one host reuse its open connections instead of
 * a connection, greeting and EHLO each. Pools unused for a minute are closed.
 */
export class HostPools {
  private readonly pools = new Map<string, { transporter: Transporter; used: number; sending: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly make: (address: string, host: string, strict: boolean) => Transporter) {
    this.sweeper = setInterval(() => this.sweep(), IDLE_MS / 2);
    this.sweeper.unref();
  }

  /**
   * Sends over the destination's pool (made on first use): `use` hands the message to its
   * transporter. A `strict` pool requires TLS with a certificate valid for the host (MTA-STS).
   */
  async send<T>(address: string, host: string, use: (transporter: Transporter) => Promise<T>, strict = false): Promise<T> {
    const key = `${address}|${host}|${strict ? 'strict' : 'opportunistic'}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = { transporter: this.make(address, host, strict), used: 0, sending: 0 };
      this.pools.set(key, pool);
    }
    pool.used = Date.now();
    pool.sending++;
    try {
      return await use(pool.transporter);
    } finally {
      pool.sending--;
      pool.used = Date.now();
    }
  }

  private sweep(): void {
    const before = Date.now() - IDLE_MS;
    for (const [key, pool] of this.pools) {
      if (pool.sending || pool.used >= before) continue;
      this.pools.delete(key);
      pool.transporter.close();
    }
  }
}
