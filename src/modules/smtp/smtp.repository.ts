import type { EntityManager } from '@mikro-orm/postgresql';

/** The SMTP listener's own lookups, for mail that arrives without a login. */
export class SmtpRepository {
  constructor(private readonly em: EntityManager) {}

  /** The DMARC monitor whose report address carries this key (dmarc/report-address.ts), if any. */
  async dmarcMonitorId(reportKey: string): Promise<string | null> {
    const [row] = await this.em.execute<{ id: string }[]>('select id from dmarc_monitors where report_key = ?', [reportKey]);
    return row?.id ?? null;
  }
}
