import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import type { IpPools, SourceAddress } from '../../lib/ip-pools.js';
import { warmUpHeld } from '../../lib/metrics.js';
import { checkEhlo } from '../ip-pools/reverse-dns.js';
import type { IpPoolRepository } from '../ip-pools/ip-pool.repository.js';
import { HeldMailError } from './site-shaper.js';

/** Where a connection leaves from: a local address ('' for the machine's choice) and the EHLO name given from it. */
export interface Source {
  address: string;
  ehlo: string;
}

export interface SourceOptions {
  pools: IpPools;
  /** IP_WARMUP_SCHEDULE: daily caps of a new address. */
  schedule: readonly number[];
  repo: () => IpPoolRepository;
  dns: Dns;
  /** MAIL_HELO_NAME or the host name: the machine's own EHLO name. */
  helo: string;
  log: Logger;
}

const EHLO_CHECK_MS = 3_600_000;

const nextUtcDay = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
};

/**
 * The source address of each email (lib/ip-pools.ts): its pool's addresses in turn, each within
 * its warm-up's cap for the day (shared by every worker, ip-pool.repository.ts). When every
 * address of the pool reached its cap the email waits for the next UTC day (HeldMailError). The
 * EHLO names are checked against reverse DNS when the worker first delivers and every hour after,
 * with a warning for each that differs. Guarded by test/mail/ip-pools.test.ts.
 */
export class SourceAddresses {
  private readonly turn = new Map<string, number>();
  /** Addresses whose cap is reached, until when; and those past their warm-up. */
  private readonly fullUntil = new Map<string, number>();
  private readonly warmed = new Set<string>();
  private readonly ehlo = new Map<string, string>();
  private checked: Promise<void> | null = null;
  private checkedAt = 0;
  private readonly unknownPools = new Set<string>();

  constructor(private readonly opts: SourceOptions) {
    for (const list of Object.values(opts.pools)) for (const a of list) if (a.warmed) this.warmed.add(a.address);
  }

  /** The source of an email of pool `pool` (its domain's or account's; null: `default`). */
  async pick(pool: string | null): Promise<Source> {
    await this.ehloNames();
    const name = pool ?? 'default';
    const list = this.opts.pools[name];
    if (!list) {
      if (pool && !this.unknownPools.has(pool)) {
        this.unknownPools.add(pool);
        this.opts.log.warn({ pool }, 'IP pool not in this worker\'s IP_POOLS; its mail leaves from the default');
      }
      return pool ? this.pick(null) : { address: '', ehlo: this.opts.helo };
    }
    const first = this.turn.get(name) ?? 0;
    this.turn.set(name, first + 1);
    for (let i = 0; i < list.length; i++) {
      const source = list[(first + i) % list.length];
      if (await this.withinWarmUp(source)) return { address: source.address, ehlo: this.ehlo.get(source.address) ?? this.opts.helo };
    }
    warmUpHeld.inc({ pool: name });
    throw new HeldMailError(nextUtcDay(), `pool ${name} (warm-up)`);
  }

  private async withinWarmUp(source: SourceAddress): Promise<boolean> {
    if (this.warmed.has(source.address)) return true;
    if ((this.fullUntil.get(source.address) ?? 0) > Date.now()) return false;
    const permit = await this.opts.repo().warmUpPermit(source.address, this.opts.schedule);
    if (permit === 'done') this.warmed.add(source.address);
    if (permit === 'full') this.fullUntil.set(source.address, nextUtcDay().getTime());
    return permit !== 'full';
  }

  /** The EHLO names, checked with the first delivery and again every hour (reverse DNS changes). */
  private ehloNames(): Promise<void> {
    if (!this.checked || Date.now() - this.checkedAt > EHLO_CHECK_MS) {
      this.checkedAt = Date.now();
      this.checked = this.checkEhloNames();
    }
    return this.checked;
  }

  private async checkEhloNames(): Promise<void> {
    for (const list of Object.values(this.opts.pools)) {
      for (const source of list) {
        const check = await checkEhlo(this.opts.dns, source, this.opts.helo);
        this.ehlo.set(source.address, check.ehlo);
        if (!check.matches) {
          this.opts.log.warn(
            { address: source.address, ehlo: check.ehlo, reverse_dns: check.reverse_dns },
            'source address: its EHLO name is not its reverse DNS name; large providers may refuse its mail',
          );
        }
      }
    }
  }
}
