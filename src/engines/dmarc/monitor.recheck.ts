import type { AppServices } from '../../core/services.js';
import { applyCheck } from '../../modules/dmarc/dmarc.check.js';
import { DmarcMonitor } from '../../modules/dmarc/dmarc.entity.js';

/** Re-checks every monitor, oldest check first; one failing lookup does not stop the others. */
export async function recheckAll(services: Pick<AppServices, 'orm' | 'dns' | 'log'>, batch = 100): Promise<number> {
  const ids = (
    await services.orm.em
      .fork()
      .find(DmarcMonitor, {}, { fields: ['id'], orderBy: { dmarc_record_checked_at: 'asc nulls first', id: 'asc' } })
  ).map((m) => m.id);
  let done = 0;
  for (let i = 0; i < ids.length; i += batch) {
    const em = services.orm.em.fork();
    const monitors = await em.find(DmarcMonitor, { id: { $in: ids.slice(i, i + batch) } }, { populate: ['domain'] });
    for (const monitor of monitors) {
      try {
        await applyCheck(services.dns, monitor);
        done++;
      } catch (err) {
        // Its previous result stays; the next run asks again.
        services.log.warn({ err, monitor_id: monitor.id }, 'dmarc check failed');
      }
    }
    await em.flush();
  }
  return done;
}
