import type { Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../../lib/ids.js';

/**
 * One dispatch batch's deliveries while the dispatching worker posts them (event.dispatch.ts). The
 * deliveries themselves are written once, when their first attempt's outcome is known
 * (round.record.ts), which spares each a second write; until then this row, committed with the events
 * it marks dispatched, is what records that they are owed. The worker deletes it with the last
 * of its outcomes; if the worker dies first, the row outlives `lease_until` and the next tick of
 * any worker writes its deliveries as due pending ones, with the same ids and bodies
 * (dispatch.repository.ts recoverLeases), so a crash re-posts and never loses a delivery.
 * One row per batch and arrays per column: two small writes per batch instead of one per delivery.
 */
@Entity({ tableName: 'webhook_dispatch_leases' })
export class WebhookDispatchLease {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  @Index()
  lease_until!: Date;

  /** When the batch was dispatched: its deliveries' created_at (their retry window starts then). */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();

  /** Per delivery, in the same order: id (the webhook-id header), webhook, event, type, exact body. */
  @Property({ type: 'text[]' })
  delivery_ids!: string[];

  @Property({ type: 'text[]' })
  webhook_ids!: string[];

  @Property({ type: 'text[]' })
  event_ids!: string[];

  @Property({ type: 'text[]' })
  types!: string[];

  @Property({ type: 'text[]' })
  bodies!: string[];
}
