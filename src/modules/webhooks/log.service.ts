import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { Webhook, WebhookAttempt } from './webhook.entity.js';
import type { ReplayWebhookArgs, WebhookLogArgs } from './log.type.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta } from '../../core/page.js';
import { FieldErrorBag } from '../../core/errors.js';

const UNIX = /^\d{1,12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `since`/`until` of a replay: Unix seconds or an ISO 8601 date/time (UTC unless an offset is given). */
export function parseInstant(value: string): Date | null {
  const v = value.trim();
  if (UNIX.test(v)) return new Date(Number(v) * 1000);
  if (!ISO_DATE.test(v)) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(v) && v.length > 10;
  const d = new Date(hasZone || v.length === 10 ? v : `${v.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

const notInstant = (f: string) => `The ${f} must be an ISO 8601 timestamp or a Unix timestamp.`;

export class WebhookLogService {
  constructor(private readonly em: EntityManager) {}

  /** The webhook's attempts, newest first. Another account's webhook is a 404. */
  async log(auth: Actor, args: WebhookLogArgs) {
    const webhook = await findOwned(this.em, Webhook, auth, { id: args.webhook_id, kind: 'email' });
    const [rows, total] = await this.em.findAndCount(
      WebhookAttempt,
      { webhook_id: webhook.id },
      { orderBy: { attempted_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  /**
   * Queues again the failed and given-up deliveries created in the window: same id (so the
   * receiver can de-duplicate), same body, backoff from the start. The retry window still counts
   * from the delivery's creation, so an old delivery gets one attempt per replay.
   */
  async replay(auth: Actor, args: ReplayWebhookArgs): Promise<number> {
    const webhook = await findOwned(this.em, Webhook, auth, { id: args.webhook_id, kind: 'email' });
    const bag = new FieldErrorBag();
    const since = parseInstant(args.since);
    if (!since) bag.add('since', notInstant('since'));
    const until = args.until != null && args.until !== '' ? parseInstant(args.until) : new Date();
    if (!until) bag.add('until', notInstant('until'));
    if (since && until && until.getTime() < since.getTime()) bag.add('until', 'The until must be a date after or equal to since.');
    bag.throwIfAny();
    const now = new Date().toISOString();
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhook_deliveries set state = 'pending', attempts = 0, next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
        where webhook_id = ? and state in ('failed', 'gave_up')
          and created_at >= ?::timestamptz and created_at <= ?::timestamptz
        returning id`,
      [now, now, webhook.id, since!.toISOString(), until!.toISOString()],
    );
    return rows.length;
  }
}
