import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import { DELIVERY, WEBHOOK_KIND, Webhook, WebhookAttempt } from './webhook.entity.js';
import { REPLAYABLE, WebhookRepository, type DeliveryRow } from './webhook.repository.js';
import type { ReplayWebhookArgs, WebhookLogArgs } from './log.type.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta } from '../../core/page.js';
import { errors, FieldErrorBag } from '../../core/errors.js';
import type { Config } from '../../config/index.js';
import { RetentionService } from '../retention/retention.service.js';

/** Replay bounds: Unix seconds, a day or any ISO 8601 date-time. */
const parseBound = (value: string) => parseMoment(value, { day: true, iso: true })?.at ?? null;
const notInstant = (f: string) => `The ${f} must be an ISO 8601 timestamp or a Unix timestamp.`;

export class WebhookLogService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
  ) {}

  /**
   * The webhook's attempts within its account's retention, newest first (older ones wait for
   * their week of the log to drop). Another account's webhook is a 404.
   */
  async log(auth: Actor, args: WebhookLogArgs) {
    const webhook = await findOwned(this.em, Webhook, auth, { id: args.webhook_id, kind: WEBHOOK_KIND.email }, ['account']);
    const since = await new RetentionService(this.em, this.config).shownSince(webhook.account);
    const [rows, total] = await this.em.findAndCount(
      WebhookAttempt,
      { webhook_id: webhook.id, attempted_at: { $gte: since } },
      { orderBy: { attempted_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  /**
   * Queues again the failed and given-up deliveries created in the window: same id (so the
   * receiver can de-duplicate), same body, backoff from the start. The retry window still counts
   * from the delivery's creation, so an old delivery gets one attempt per replay. Deliveries past
   * the account's retention (kept until their week drops) are not replayed.
   */
  async replay(auth: Actor, args: ReplayWebhookArgs): Promise<number> {
    const webhook = await findOwned(this.em, Webhook, auth, { id: args.webhook_id, kind: WEBHOOK_KIND.email }, ['account']);
    const bag = new FieldErrorBag();
    const since = parseBound(args.since);
    if (!since) bag.add('since', notInstant('since'));
    const until = args.until != null && args.until !== '' ? parseBound(args.until) : new Date();
    if (!until) bag.add('until', notInstant('until'));
    if (since && until && until.getTime() < since.getTime()) bag.add('until', 'The until must be a date after or equal to since.');
    bag.throwIfAny();
    const shown = await new RetentionService(this.em, this.config).shownSince(webhook.account);
    return new WebhookRepository(this.em).replay(webhook.id, since! > shown ? since! : shown, until!);
  }

  /**
   * One delivery of the caller's email webhooks, its body included; another account's, another
   * domain's (for a limited caller) or one past the account's retention is not found.
   */
  async delivery(auth: Actor, id: string): Promise<DeliveryRow> {
    const row = await new WebhookRepository(this.em).delivery(id);
    if (!row) throw errors.notFound();
    const webhook = await findOwned(this.em, Webhook, auth, { id: row.webhook_id, kind: WEBHOOK_KIND.email }, ['account']);
    const since = await new RetentionService(this.em, this.config).shownSince(webhook.account);
    if (new Date(row.created_at) < since) throw errors.notFound();
    return { ...row, created_at: new Date(row.created_at) };
  }

  /** Queues one failed or given-up delivery again, as a replay does; any other state is a 422. */
  async retry(auth: Actor, id: string): Promise<DeliveryRow> {
    const row = await this.delivery(auth, id);
    if (!REPLAYABLE.includes(row.state) || !(await new WebhookRepository(this.em).retry(id))) {
      throw errors.invalid('delivery_id', 'Only a failed or given-up delivery can be retried.');
    }
    // As the update left it: queued again from the start (webhook.repository.ts retry).
    return { ...row, state: DELIVERY.pending, attempts: 0 };
  }
}
