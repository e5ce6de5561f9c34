import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRows, textArray } from '../../db/sql.js';
import {
  PAUSABLE_EMAIL,
  PENDING_EMAIL,
  type EmailStatus,
  type MessageStatus,
} from '../messages/message.status.js';

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
    await sqlCount(this.em, 'update messages set status = $1, updated_at = now() where id = $2', [PAUSED, messageId]);
    await sqlCount(this.em, 'update emails set status = $1, updated_at = now() where message_id = $2 and status = any($3::text[])', [
      PAUSED,
      messageId,
      textArray(PAUSABLE_EMAIL),
    ]);
  }

  /** A message that cannot be sent at all: `error` with the reason, its pending emails cancelled (two statements: run it in a transaction). */
  async fail(messageId: string, reason: string): Promise<void> {
    await sqlCount(this.em, 'update messages set status = $1, status_message = $2, updated_at = now() where id = $3', [ERROR, reason, messageId]);
    await sqlCount(this.em, 'update emails set status = $1, updated_at = now() where message_id = $2 and status = any($3::text[])', [
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
    return sqlRows<{ id: string; send_at: Date | null }>(
      this.em,
      `update messages set status = case when send_at > now() then $1 else $2 end, updated_at = now()
        where domain_id = $3 and waiting and status = $4 returning id, send_at`,
      [SCHEDULED, QUEUED, domainId, PAUSED],
    );
  }

  /** The paused emails of a released message take its new status. */
  async releasePausedEmails(messageId: string, status: typeof SCHEDULED | typeof QUEUED): Promise<void> {
    await sqlCount(this.em, 'update emails set status = $1, updated_at = now() where message_id = $2 and status = $3', [status, messageId, PAUSED]);
  }
}
