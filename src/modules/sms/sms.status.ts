import type { EntityManager } from '@mikro-orm/postgresql';
import { recordSmsEvent, type SmsEventType } from '../events/sms-events.js';
import type { ReportedSmsStatus as SmsStatus } from './sms.statuses.js';
import { SmsActivity, type Sms } from './sms.entity.js';

/**
 * Statuses only move forward: queued → sent → delivered | failed. Providers report out of order
 * (a late `sent` after `delivered`) and more than once; a status already reached changes nothing.
 * `skipped` (an opted-out recipient) is final and never reported.
 */
const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, failed: 2 };

export interface SmsError {
  type: string | null;
  description: string | null;
}

/**
 * Moves `sms` to `target` through `tx`, with one activity and one `sms.*` event per status
 * reached. A delivery reported for a text still marked queued passes through `sent`, so every
 * delivered text has both. Answers the statuses recorded (none when it was not a move forward).
 */
export function advanceSms(tx: EntityManager, sms: Sms, target: SmsStatus, error: SmsError | null = null, at = new Date()): SmsStatus[] {
  if (!(sms.status in RANK) || RANK[target] <= RANK[sms.status]) return [];
  const steps: SmsStatus[] = target === 'delivered' && sms.status === 'queued' ? ['sent', 'delivered'] : [target];
  steps.forEach((step, i) => {
    // A millisecond apart, so newest-first lists show delivered above the sent of the same moment.
    const when = new Date(at.getTime() + i);
    sms.status = step;
    if (step === 'failed') {
      sms.error_type = (error?.type ?? 'failed').slice(0, 64);
      sms.error_description = error?.description ?? null;
    }
    tx.create(SmsActivity, { account: sms.account, sms_number: sms.sms_number, sms, status: step, created_at: when, updated_at: when });
    if (step !== 'queued') recordSmsEvent(tx, sms.account.id, sms.sms_number.id, `sms.${step}` as SmsEventType, sms, when);
  });
  return steps;
}
