import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import { readArgs } from '../../../rest-mapping/args.js';
import { enqueue } from '../../jobs/boss.js';
import { newId } from '../../lib/ids.js';
import type { AppServices } from '../../services.js';
import { DomainEvent } from '../events/domain-event.entity.js';
import type { SendEmailArgs } from '../sending/send.inputs.js';
import { acceptSend } from '../sending/send.service.js';
import { BulkEmail } from './bulk-email.entity.js';
import { bulkJob } from './bulk.job.js';
import { type Actor } from '../../core/actor.js';
import { errors, isAppError } from '../../core/errors.js';

/** At most this many messages per request. */
export const BULK_MAX = 500;

/** Each item, typed as the send_email arguments, or the type errors that keep it from being sent. */
type Item = { args: Record<string, unknown> } | { errors: Record<string, string[]> };

/**
 * POST /v1/bulk-email: the request is stored and answered at once; a job sends its messages one by
 * one through the same acceptance as POST /v1/email. Type errors are found here (the schema of
 * send_email is at hand), everything else by the job; both end up in `validation_errors`.
 */
export async function acceptBulk(services: AppServices, em: EntityManager, auth: Actor, schema: GraphQLSchema, emails: unknown[]): Promise<BulkEmail> {
  if (emails.length > BULK_MAX) throw errors.invalid('emails', `The emails may not have more than ${BULK_MAX} items.`);
  const sendArgs = schema.getMutationType()!.getFields().send_email.args;
  const items: Item[] = emails.map((e) => {
    if (!e || typeof e !== 'object' || Array.isArray(e)) return { errors: { '': ['The message must be an object.'] } };
    const { variables, errors: found } = readArgs(sendArgs, {}, {}, e as Record<string, unknown>);
    return Object.keys(found).length ? { errors: found } : { args: variables };
  });
  const bulk = em.create(BulkEmail, {
    id: newId(24),
    account: auth.accountId,
    token_domain_id: auth.domainId,
    payload: items,
    total_recipients_count: emails.reduce<number>((n, e) => n + (Array.isArray((e as { to?: unknown })?.to) ? (e as { to: unknown[] }).to.length : 0), 0),
  } as never);
  await em.transactional(async (tx) => {
    await tx.persist(bulk).flush();
    await enqueue(tx, services.boss, bulkJob, { bulk_email_id: bulk.id });
  });
  return bulk;
}

/** The job's work: resumes after the last item it finished, each item in its own transaction. */
export async function processBulk(services: AppServices, bulkId: string): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const bulk = await em.findOne(BulkEmail, { id: bulkId });
  if (!bulk || bulk.state === 'completed') return;
  const items = (bulk.payload ?? []) as Item[];
  const auth: Actor = { accountId: bulk.account.id, tokenId: 'bulk', scopes: new Set(['email_full']), domainId: bulk.token_domain_id };
  bulk.state = 'processing';
  await em.flush();
  for (let i = bulk.processed_count; i < items.length; i++) {
    const item = items[i];
    await em.transactional(async (tx) => {
      const row = await tx.findOneOrFail(BulkEmail, { id: bulkId });
      const refuse = (found: Record<string, string[]>) => {
        const prefixed = Object.fromEntries(Object.entries(found).map(([k, v]) => [k ? `message.${i}.${k}` : `message.${i}`, v]));
        row.validation_errors = { ...(row.validation_errors ?? {}), ...prefixed };
        row.validation_errors_count += 1;
      };
      if ('errors' in item) refuse(item.errors);
      else {
        try {
          const result = await acceptSend(services, tx, auth, item.args as unknown as SendEmailArgs, { bulkEmailId: bulkId });
          row.messages_id = [...(row.messages_id ?? []), result.message_id];
          const suppressed = result.warnings.flatMap((w) => w.recipients);
          if (suppressed.length) {
            row.suppressed_recipients = { ...(row.suppressed_recipients ?? {}), [`message.${i}`]: { to: suppressed } };
            row.suppressed_recipients_count += suppressed.length;
          }
        } catch (err) {
          if (!isAppError(err)) throw err;
          refuse(err.fields ?? { '': [err.message] });
        }
      }
      row.processed_count = i + 1;
    });
  }
  await em.transactional(async (tx) => {
    const row = await tx.findOneOrFail(BulkEmail, { id: bulkId });
    row.state = 'completed';
    row.payload = null;
    tx.create(DomainEvent, {
      account_id: row.account.id,
      domain_id: row.token_domain_id,
      type: 'bulk_email.completed',
      payload: bulkEventData(row),
    } as never);
  });
}

export function bulkEventData(b: BulkEmail) {
  return {
    id: b.id,
    state: b.state,
    total_recipients_count: b.total_recipients_count,
    suppressed_recipients_count: b.suppressed_recipients_count,
    suppressed_recipients: b.suppressed_recipients,
    validation_errors_count: b.validation_errors_count,
    validation_errors: b.validation_errors,
    messages_id: b.messages_id,
  };
}
