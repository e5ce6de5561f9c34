import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue, type Boss } from '../../jobs/boss.js';
import { deliverJob } from './deliver.job.js';
import { MessageRepository } from './message.repository.js';

/**
 * Queues every message of the domain that waited for `send_paused` to be switched off. A paused
 * message that also has a send time in the future keeps that time.
 */
export async function releasePaused(tx: EntityManager, boss: Boss, domainId: string): Promise<number> {
  const messages = new MessageRepository(tx);
  const rows = await messages.releasePaused(domainId);
  for (const row of rows) {
    const later = row.send_at && new Date(row.send_at) > new Date();
    await messages.releasePausedEmails(row.id, later ? 'scheduled' : 'queued');
    await enqueue(tx, boss, deliverJob, { message_id: row.id }, later ? { startAfter: new Date(row.send_at!) } : {});
  }
  return rows.length;
}
