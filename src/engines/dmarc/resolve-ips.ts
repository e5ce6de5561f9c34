import type { AppServices } from '../../core/services.js';
import { DmarcRepository } from '../../modules/dmarc/dmarc.repository.js';

/** Lookups in flight at once for one report: a report may name thousands of sources. */
const CONCURRENCY = 8;

/**
 * Fills `ip_domain` for the rows of one report: the first PTR name of each source IP, '' when
 * it has none. IPs whose lookup failed stay null and make the job fail, so pg-boss retries them.
 */
export async function resolveReportIps(services: Pick<AppServices, 'orm' | 'dns' | 'log'>, reportId: string): Promise<void> {
  const reports = new DmarcRepository(services.orm.em.fork());
  const ips = await reports.unresolvedIps(reportId);
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < ips.length) {
      const ip = ips[next++];
      try {
        const [name] = await services.dns.ptr(ip);
        await reports.setIpDomain(reportId, ip, (name ?? '').replace(/\.$/, '').toLowerCase());
      } catch (err) {
        failed++;
        services.log.debug({ err, ip }, 'dmarc source reverse lookup failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ips.length) }, worker));
  if (failed) throw new Error(`${failed} of ${ips.length} reverse lookups failed`);
}
