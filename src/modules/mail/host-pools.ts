import type { Transporter } from 'nodemailer';
import type { Site, SiteLimits } from '../../lib/shaping.js';
import type { Source } from './source-addresses.js';
import type { Tlsa } from '../../lib/dane.js';

/** A pool unused for this long is closed (its connections are then idle anyway). */
const IDLE_MS = 60_000;

/**
 * Where a pool's connections go: an MX address, the name its certificate is checked for, whether
 * it is checked, its site's limits, and the local address they leave from with its EHLO name.
 */
export interface Destination {
  address: string;
  host: string;
  strict: boolean;
  limits: SiteLimits;
  source: Source;
  /** The host's DANE records: each connection is checked against them (dane.ts). */
  dane?: Tlsa[];
}

/**
 * One pooled nodemailer transport per destination, made on first use: messages to one host reuse
 * its open connections instead of a connection, greeting and EHLO each. Pools unused for a minute
 * are closed.
 */
export class HostPools {
  private readonly pools = new Map<string, { transporter: Transporter; used: number; sending: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly make: (to: Destination) => Transporter) {
    this.sweeper = setInterval(() => this.sweep(), IDLE_MS / 2);
    this.sweeper.unref();
  }

  /**
   * Sends over the destination's pool (made on first use): `use` hands the message to its
   * transporter. A `strict` pool requires TLS with a certificate valid for the host (MTA-STS).
   */
  async send<T>(to: { address: string; host: string; site: Site; source: Source; dane?: Tlsa[] }, use: (transporter: Transporter) => Promise<T>, strict = false): Promise<T> {
    const { address, host, site, source, dane } = to;
    const tls = dane ? `dane:${dane.map((t) => t.data.toString('hex')).join(',')}` : strict ? 'strict' : 'opportunistic';
    const key = `${address}|${host}|${tls}|${site.name}|${source.address}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = { transporter: this.make({ address, host, strict, limits: site.limits, source, dane }), used: 0, sending: 0 };
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
