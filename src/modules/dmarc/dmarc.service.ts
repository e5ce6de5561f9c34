import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { applyCheck } from './dmarc.check.js';
import { DmarcMonitor, newReportKey } from './dmarc.entity.js';
import type { CreateDmarcMonitorArgs, DmarcListArgs, UpdateDmarcMonitorArgs } from './dmarc.inputs.js';
import { parseDmarcRecord } from './dmarc-record.js';
import { defaultWantedRecord } from './report-address.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
import { errors } from '../../core/errors.js';

type Services = Pick<AppServices, 'dns' | 'log' | 'config'>;

export class DmarcService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Services,
  ) {}

  async list(auth: Actor, args: DmarcListArgs): Promise<DmarcMonitor[]> {
    const where: Record<string, unknown> = visibleTo(auth);
    if (args.query) where.domain = { ...(where.domain ? { id: where.domain } : {}), name: { $ilike: `%${args.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } };
    const dir = args.order === 'asc' ? 'asc' : 'desc';
    return this.em.find(DmarcMonitor, where, {
      populate: ['domain'],
      orderBy: { [args.sort_by ?? 'created_at']: dir, id: dir },
      limit: args.limit,
      offset: (args.page - 1) * args.limit,
    });
  }

  async create(auth: Actor, args: CreateDmarcMonitorArgs): Promise<DmarcMonitor> {
    const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
    if (domain) assertDomainAccess(auth, domain.id);
    if (!domain) throw errors.invalid('domain_id', 'The selected domain id is invalid.');
    if (!domain.is_verified) throw errors.invalid('domain_id', 'The domain must be verified before it can be monitored.');
    if (await this.em.count(DmarcMonitor, { domain: domain.id })) {
      throw errors.invalid('domain_id', 'The domain is already monitored.');
    }
    // The key names the report address, which the default wanted record sends reports to.
    const report_key = newReportKey();
    const monitor = this.em.create(DmarcMonitor, {
      account: this.em.getReference(Account, auth.accountId),
      domain,
      report_key,
      wanted_dmarc_record: defaultWantedRecord(this.services.config, report_key),
    });
    // Checked inline so the answer shows what DNS has now; when DNS cannot answer, the cron does it.
    try {
      await applyCheck(this.services.dns, monitor);
    } catch (err) {
      this.services.log.warn({ err, domain_id: domain.id }, 'dmarc check at creation failed');
    }
    try {
      await this.em.flush();
    } catch (err) {
      // Two creates racing for one domain: the unique constraint decides.
      if ((err as { code?: string }).code === '23505' || /unique/i.test(String((err as Error).message))) {
        throw errors.invalid('domain_id', 'The domain is already monitored.');
      }
      throw err;
    }
    return monitor;
  }

  async update(auth: Actor, args: UpdateDmarcMonitorArgs): Promise<DmarcMonitor> {
    const monitor = await findOwned(this.em, DmarcMonitor, auth, { id: args.monitor_id }, ['domain']);
    const record = args.wanted_dmarc_record.trim();
    if (!record) throw errors.invalid('wanted_dmarc_record', 'The wanted dmarc record field is required.');
    const parsed = parseDmarcRecord(record);
    if (!parsed.ok) throw errors.invalid('wanted_dmarc_record', `The wanted dmarc record is not a valid DMARC record: ${parsed.error}`);
    monitor.wanted_dmarc_record = record;
    await this.em.flush();
    return monitor;
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const monitor = await findOwned(this.em, DmarcMonitor, auth, { id });
    await this.em.nativeDelete(DmarcMonitor, { id: monitor.id });
    return true;
  }
}
