import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue, type Boss } from '../../jobs/boss.js';
import { deliverJob } from './deliver.job.js';

/**
 * Queues every message of the domain that waited for `send_paused` to be switched off. A paused
 * message that also has a send time in the future keeps that time.
 */
export async function releasePaused(tx: EntityManager, boss: Boss, domainId: string): Promise<number> {
  const rows = await tx.execute<{ id: string; send_at: Date | null }[]>(
    `update messages set status = case when send_at > now() then 'scheduled' else 'queued' end, updated_at = now()
      where domain_id = ? and status = 'paused' returning id, send_at`,
    [domainId],
  );
  for (const row of rows) {
    const later = row.send_at && new Date(row.send_at) > new Date();
    await tx.execute(
      `update emails set status = ?, updated_at = now() where message_id = ? and status = 'paused'`,
      [later ? 'scheduled' : 'queued', row.id],
    );
    await enqueue(tx, boss, deliverJob, { message_id: row.id }, later ? { startAfter: new Date(row.send_at!) } : {});
  }
  return rows.length;
}
