import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One delivery batch's claim while a worker delivers it (delivery.loop.ts): written by the
 * statement that claims the batch's emails, in the transaction that fetched its jobs, renewed
 * with the emails' leases by its owner (delivery.engine.ts), and deleted in the transaction that
 * settles its jobs. A worker that dies or freezes stops renewing; once the row's lease has run
 * out, any other worker makes the row its own and delivers its messages at once (lease.repository.ts
 * takeOver), then settles the jobs, without waiting for pg-boss. The emails' own leases
 * (`emails.lease_until`) run out at the same moment, so they can be claimed.
 */
/** A job of a batch, as the lease row keeps it: its attempt (pg-boss fences settling by it) and its message. */
export interface LeasedJob {
  id: string;
  retryCount: number;
  /** Null for a job whose data its schema refused, with the schema's words in `refused`. */
  messageId: string | null;
  refused?: string;
}

@Entity({ tableName: 'delivery_leases' })
export class DeliveryLease {
  @PrimaryKey({ type: 'string', length: 32 })
  id!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  lease_until!: Date;

  /** The worker process that renews the row (DeliveryEngine.owner); null for a row an older release wrote. */
  @Property({ type: 'string', length: 32, nullable: true })
  owner?: string | null;

  /** The pg-boss job attempts of the batch, settled by whoever owns the row when it ends. */
  @Property({ type: 'json', columnType: 'jsonb' })
  jobs: Opt<LeasedJob[]> = [];

  /** The messages of the batch's jobs. */
  @Property({ type: 'text[]' })
  message_ids!: string[];

  /** Those of them on their job's last attempt: what is still deferred after a takeover soft-bounces. */
  @Property({ type: 'text[]' })
  final_ids: Opt<string[]> = [];
}
