import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobAttempt } from '../../jobs/job.js';
import type { AppServices } from '../../core/services.js';
import { SmsProviderError, smsProvider } from './sms.provider.js';
import { Sms, SmsMessage } from './sms.entity.js';
import { SmsRepository } from './sms.repository.js';
import { QUEUED_SMS } from './sms.statuses.js';
import { advanceSms } from './sms.status.js';

/** Where the provider reports on one text; naming our id lets the report wait for the send to commit. */
export function statusCallbackUrl(publicUrl: string, provider: string, smsId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/sms/provider/${provider}/status?sms_id=${encodeURIComponent(smsId)}`;
}

export async function sendSmsMessage(services: AppServices, messageId: string, attempt: JobAttempt): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const message = await em.findOne(SmsMessage, { id: messageId }, { populate: ['sms_number'] });
  // Paused after acceptance: the texts wait; unpausing the number enqueues the message again.
  if (!message || message.sms_number.paused) return;
  const pending = await em.find(Sms, { message: messageId, status: QUEUED_SMS }, { fields: ['id'], orderBy: { created_at: 'asc', id: 'asc' } });
  const lastAttempt = attempt.retryCount >= attempt.retryLimit;
  let retry: SmsProviderError | null = null;
  for (const { id } of pending) {
    try {
      await sendOne(services, id, lastAttempt);
    } catch (err) {
      if (!(err instanceof SmsProviderError)) throw err;
      retry = err;
    }
  }
  if (retry) throw retry;
}

/**
 * One text, in a transaction that holds its row while the provider is called: a second worker
 * skips it, a worker killed mid-call leaves it queued, and a status callback for it waits until
 * the provider's id is committed. A retryable provider error rolls back (the job retries it).
 */
async function sendOne(services: AppServices, smsId: string, lastAttempt: boolean): Promise<void> {
  const { config } = services;
  const provider = smsProvider(config);
  const em = services.orm.em.fork() as EntityManager;
  await em.transactional(async (tx) => {
    if (!(await new SmsRepository(tx).lockQueued(smsId))) return;
    const sms = await tx.findOneOrFail(Sms, { id: smsId }, { populate: ['recipient'] });
    let result;
    try {
      result = await provider.send({ from: sms.from, to: sms.to, text: sms.text, statusCallback: statusCallbackUrl(config.PUBLIC_URL, provider.name, sms.id) });
    } catch (err) {
      if (!(err instanceof SmsProviderError)) throw err;
      if (err.retryable && !lastAttempt) throw err;
      services.log.info({ sms: sms.id, err: err.message }, 'sms refused by the provider');
      advanceSms(tx, sms, 'failed', { type: err.errorType ?? (err.retryable ? 'provider_unavailable' : 'provider_rejected'), description: err.message });
      await tx.flush();
      return;
    }
    sms.provider_id = result.providerId || null;
    if (result.status === 'failed') {
      advanceSms(tx, sms, 'failed', { type: result.errorType ?? 'provider_rejected', description: result.errorDescription ?? null });
    } else {
      advanceSms(tx, sms, result.status === 'delivered' ? 'delivered' : 'sent');
    }
    await tx.flush();
  });
}
