import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One delivery batch's claim while a worker delivers it (delivery.batch.ts): written by the
 * statement that claims the batch's emails, renewed with their leases (delivery.engine.ts), and
 * deleted with the batch's last outcome. A worker that dies or freezes stops renewing; once the
 * row's lease has run out, any other worker deletes it and delivers its messages at once
 * (lease.repository.ts takeOver), without waiting for pg-boss to retry the dead worker's job. The
 * emails' own leases (`emails.lease_until`) run out at the same moment, so they can be claimed.
 */
@Entity({ tableName: 'delivery_leases' })
export class DeliveryLease {
  @PrimaryKey({ type: 'string', length: 32 })
  id!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  lease_until!: Date;

  /** The messages the batch took. */
  @Property({ type: 'text[]' })
  message_ids!: string[];

  /** Those of them on their job's last attempt: what is still deferred after a takeover soft-bounces. */
  @Property({ type: 'text[]' })
  final_ids: Opt<string[]> = [];
}
