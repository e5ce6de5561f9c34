import type { EntityManager } from '@mikro-orm/postgresql';
import os from 'node:os';
import type { Config } from '../../config/index.js';
import { errors, msg } from '../../core/errors.js';
import type { Dns } from '../../lib/dns.js';
import { IpPoolRepository } from './ip-pool.repository.js';
import type { IpPoolAssignmentType, IpPoolType } from './ip-pool.type.js';
import { checkEhlo } from './reverse-dns.js';

type PoolSettings = Pick<Config, 'IP_POOLS' | 'IP_WARMUP_SCHEDULE' | 'MAIL_HELO_NAME'>;

/** The operator's view of the source address pools, and who sends from which (docs/delivery.md). */
export class IpPoolService {
  private readonly repo: IpPoolRepository;

  constructor(
    em: EntityManager,
    private readonly config: PoolSettings,
    private readonly dns: Dns,
  ) {
    this.repo = new IpPoolRepository(em);
  }

  async pools(): Promise<IpPoolType[]> {
    const pools = this.config.IP_POOLS ?? {};
    const schedule = this.config.IP_WARMUP_SCHEDULE;
    const all = Object.values(pools).flat();
    const warmUps = new Map((await this.repo.warmUps(all.map((a) => a.address))).map((w) => [w.address, w]));
    const helo = this.config.MAIL_HELO_NAME ?? os.hostname();
    return Promise.all(
      Object.entries(pools).map(async ([name, list]) => ({
        name,
        addresses: await Promise.all(
          list.map(async (source) => {
            const check = await checkEhlo(this.dns, source, helo);
            const w = warmUps.get(source.address);
            const warmed = Boolean(source.warmed) || (w ? w.day > schedule.length : false);
            return {
              address: source.address,
              ehlo: check.ehlo,
              reverse_dns: check.reverse_dns,
              ehlo_matches: check.matches,
              warmed,
              warmup_day: w?.day ?? null,
              daily_cap: warmed ? null : schedule[(w?.day ?? 1) - 1],
              sent_today: w?.sent_today ?? 0,
            };
          }),
        ),
      })),
    );
  }

  /** Gives an account, or one of its domains, a pool of IP_POOLS (null: none of its own). */
  async assign(accountId: string, domainId: string | null, pool: string | null): Promise<IpPoolAssignmentType> {
    if (pool !== null && !(this.config.IP_POOLS ?? {})[pool]) throw errors.invalid('pool', msg.in('pool'));
    if (!(await this.repo.assign(accountId, domainId, pool))) throw errors.notFound();
    return { account_id: accountId, domain_id: domainId, pool };
  }
}
