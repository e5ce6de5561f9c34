import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow } from '../../db/sql.js';

/** The SMTP listener's own lookups, for mail that arrives without a login. */
export class SmtpRepository {
  constructor(private readonly em: EntityManager) {}

  /** The DMARC monitor whose report address carries this key (dmarc/report-address.ts), if any. */
  async dmarcMonitorId(reportKey: string): Promise<string | null> {
    const row = await sqlRow<{ id: string }>(this.em, 'select id from dmarc_monitors where report_key = $1', [reportKey]);
    return row?.id ?? null;
  }
}
