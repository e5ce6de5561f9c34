import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { newId } from '../../lib/ids.js';
import { inSlices } from '../../lib/slices.js';
import type { AppServices } from '../../core/services.js';
import { DomainEvent } from '../events/domain-event.entity.js';
import { SendEmailArgs } from '../sending/send.inputs.js';
import { acceptSend } from '../sending/send.service.js';
import { SEND_EMAIL_SHAPE } from '../sending/send.shape.js';
import { checkPersonalization } from '../sending/send.validate.js';
import { BulkEmail } from './bulk-email.entity.js';
import { bulkJob } from './bulk.job.js';
import { domainsOf, type Actor } from '../../core/actor.js';
import { offsetOf, type PageQuery } from '../../core/page.js';
import { BulkRepository } from './bulk.repository.js';
import { errors, isAppError, type FieldErrors } from '../../core/errors.js';
import { readJson } from '../../core/json-shape.js';
import { checkRules } from '../../core/validation.js';

/** At most this many messages per request. */
export const BULK_MAX = 500;

/** Each item, read as the send_email arguments, or the errors that keep it from being sent. */
type Item = { args: Record<string, unknown> } | { errors: FieldErrors };

/**
 * One item checked as POST /v1/email checks its body before anything runs: the JSON types of the
 * send_email arguments first, then the rules declared on their class. Keys are the body's paths
 * (`from.email`); the job prefixes them with the item's place.
 */
async function readItem(e: unknown): Promise<Item> {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return { errors: { '': ['The message must be an object.'] } };
  const { value, errors: found } = readJson(SEND_EMAIL_SHAPE, e as Record<string, unknown>);
  if (Object.keys(found).length) return { errors: found };
  // Bounded here, so that data no send may carry is not stored with the request (test/sending/personalization-limits.test.ts).
  const bounds: FieldErrors = {};
  checkPersonalization({ add: (field, message) => (bounds[field] ??= []).push(message) }, (value as Partial<SendEmailArgs>).personalization);
  if (Object.keys(bounds).length) return { errors: bounds };
  const ruled = await checkRules(Object.assign(new SendEmailArgs(), value));
  return Object.keys(ruled).length ? { errors: ruled } : { args: value };
}

/**
 * POST /v1/bulk-email: the request is stored and answered at once; a job sends its messages one by
 * one through the same acceptance as POST /v1/email. Malformed items are found here, everything
 * else by the job; both end up in `validation_errors`.
 */
export async function acceptBulk(services: AppServices, em: EntityManager, auth: Actor, emails: unknown[]): Promise<BulkEmail> {
  if (emails.length > BULK_MAX) throw errors.invalid('emails', `The emails may not have more than ${BULK_MAX} items.`);
  const items: Item[] = [];
  // Up to BULK_MAX items of the largest body: read in slices, so other requests are served between them.
  const slices = inSlices();
  for (const e of emails) {
    items.push(await readItem(e));
    await slices.between();
  }
  const bulk = em.create(BulkEmail, {
    id: newId(24),
    account: auth.accountId,
    token_domain_id: auth.domainId,
    token_domain_ids: auth.domainIds?.length ? [...auth.domainIds] : null,
    token_template_ids: auth.templateIds?.length ? [...auth.templateIds] : null,
    payload: items,
    total_recipients_count: emails.reduce<number>((n, e) => n + (Array.isArray((e as { to?: unknown })?.to) ? (e as { to: unknown[] }).to.length : 0), 0),
  });
  await em.transactional(async (tx) => {
    await tx.persist(bulk).flush();
    await enqueue(tx, services.boss, bulkJob, { bulk_email_id: bulk.id });
  });
  return bulk;
}

/** The job's work: resumes after the last item it finished, each item in its own transaction. */
export async function processBulk(services: AppServices, bulkId: string): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const bulk = await em.findOne(BulkEmail, { id: bulkId }, { populate: ['payload'] });
  if (!bulk || bulk.state === 'completed') return;
  const items = (bulk.payload ?? []) as Item[];
  // The job acts for the account as the request's token did: sending only (the scope the bulk
  // route required), within the token's domain when it had one (or the user's several domains),
  // with the user's templates only when it was limited to some.
  const auth: Actor = {
    accountId: bulk.account.id,
    tokenId: 'bulk',
    scopes: new Set(['email_full']),
    domainId: bulk.token_domain_id,
    domainIds: bulk.token_domain_ids,
    templateIds: bulk.token_template_ids,
  };
  const from = bulk.processed_count;
  // The items' transactions share this identity map: without the request in it (a lazy property
  // loaded here only), their flushes never serialise it again to compare.
  em.clear();
  const row = await em.findOneOrFail(BulkEmail, { id: bulkId });
  row.state = 'processing';
  await em.flush();
  for (let i = from; i < items.length; i++) {
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
          // Read against SEND_EMAIL_SHAPE when the request was accepted, so it has the arguments' shape.
          const result = await acceptSend(services, tx, auth, item.args as unknown as SendEmailArgs, { bulkEmailId: bulkId });
          row.messages_id = [...(row.messages_id ?? []), result.message_id];
          const suppressed = result.warnings.flatMap((w) => w.recipients);
          if (suppressed.length) {
            row.suppressed_recipients = { ...(row.suppressed_recipients ?? {}), [`message.${i}`]: { to: suppressed } };
            row.suppressed_recipients_count += suppressed.length;
          }
        } catch (err) {
          // A service too busy to render now (a 503) is retried with the job, not reported.
          if (!isAppError(err) || err.status >= 500) throw err;
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
    });
  });
}

/** The bulk requests the caller may read, newest first: those of a domain-limited caller made within its domains only. */
export function listBulk(em: EntityManager, auth: Actor, args: PageQuery): Promise<BulkEmail[]> {
  return new BulkRepository(em).page(auth.accountId, domainsOf(auth), args.limit, offsetOf(args));
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
