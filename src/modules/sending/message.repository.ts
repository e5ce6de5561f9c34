import type { EntityManager } from '@mikro-orm/postgresql';
import { textArray } from '../../db/sql.js';
import {
  PAUSABLE_EMAIL,
  PENDING_EMAIL,
  type EmailStatus,
  type MessageStatus,
} from '../messages/status.js';

const PAUSED = 'paused' satisfies MessageStatus & EmailStatus;
const QUEUED = 'queued' satisfies MessageStatus & EmailStatus;
const SCHEDULED = 'scheduled' satisfies MessageStatus & EmailStatus;
const ERROR = 'error' satisfies MessageStatus;
const CANCELLED = 'cancelled' satisfies EmailStatus;

/**
 * The status changes of pausing, releasing and giving up on messages and their emails, as single
 * statements: a status moves only from the states the statement names, so a concurrent change (a
 * cancelled schedule, another worker) is never overwritten. Delivery's own statements, made per
 * batch, are in delivery.repository.ts.
 */
export class MessageRepository {
  constructor(private readonly em: EntityManager) {}

  /** Its domain was paused after acceptance: the message and its waiting emails wait too. */
  async pause(messageId: string): Promise<void> {
    await this.em.execute('update messages set status = ?, updated_at = now() where id = ?', [PAUSED, messageId]);
    await this.em.execute('update emails set status = ?, updated_at = now() where message_id = ? and status = any(?::text[])', [
      PAUSED,
      messageId,
      textArray(PAUSABLE_EMAIL),
    ]);
  }

  /** A message that cannot be sent at all: `error` with the reason, its pending emails cancelled (two statements: run it in a transaction). */
  async fail(messageId: string, reason: string): Promise<void> {
    await this.em.execute('update messages set status = ?, status_message = ?, updated_at = now() where id = ?', [ERROR, reason, messageId]);
    await this.em.execute('update emails set status = ?, updated_at = now() where message_id = ? and status = any(?::text[])', [
      CANCELLED,
      messageId,
      textArray(PENDING_EMAIL),
    ]);
  }

  /**
   * The domain's paused messages wait again for delivery: `scheduled` when their send time is still
   * ahead, else `queued`. Returns them with their send time.
   */
  async releasePaused(domainId: string): Promise<{ id: string; send_at: Date | null }[]> {
    return this.em.execute<{ id: string; send_at: Date | null }[]>(
      `update messages set status = case when send_at > now() then ? else ? end, updated_at = now()
        where domain_id = ? and waiting and status = ? returning id, send_at`,
      [SCHEDULED, QUEUED, domainId, PAUSED],
    );
  }

  /** The paused emails of a released message take its new status. */
  async releasePausedEmails(messageId: string, status: typeof SCHEDULED | typeof QUEUED): Promise<void> {
    await this.em.execute('update emails set status = ?, updated_at = now() where message_id = ? and status = ?', [status, messageId, PAUSED]);
  }
}
