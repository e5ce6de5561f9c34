import type { EntityManager } from '@mikro-orm/postgresql';
import { idRange, idsIn } from '../../db/partitions.js';
import { sqlRows, textArray } from '../../db/sql.js';
import { PENDING_EMAIL } from '../../modules/messages/message.status.js';
import type { LeasedJob } from './delivery-lease.entity.js';

/**
 * The renewal of one process's claims: the lease rows of its batches that are still its own
 * (a row another worker took over has that worker as its owner), and the leases of the emails of those batches only,
 * so a process that froze past its lease never renews emails another worker now holds.
 */
const RENEW = `with live as (
    update delivery_leases set lease_until = now() + make_interval(secs => $1::int)
     where id = any($2::text[]) and owner = $8
    returning id
  ),
  renewed as (
    update emails e set lease_until = now() + make_interval(secs => $1::int)
      from unnest($3::text[], $4::text[]) as h(email_id, lease_id)
     where ${idsIn('e.id', '$3::text[]', '$6', '$7')} and e.id = h.email_id and h.lease_id in (select id from live)
       and e.status = any($5::text[])
  )
  select id from live`;

/**
 * Lapsed batches, each taken by one worker (skip locked): the row becomes the caller's, with a
 * fresh lease, and comes back for it to deliver and settle. The row stays, so a taker that dies
 * in turn leaves it to the next. The table holds only the batches in flight, so it is read whole.
 */
const TAKE_OVER = `update delivery_leases set owner = $2, lease_until = now() + make_interval(secs => $3::int)
   where id in (select id from delivery_leases where lease_until < now() order by lease_until limit $1 for update skip locked)
  returning id, message_ids, final_ids, jobs`;

/** A lapsed batch, now the caller's: its messages, those on their job's last attempt, and its jobs. */
export interface LapsedBatch {
  id: string;
  message_ids: string[];
  final_ids: string[];
  jobs: LeasedJob[];
}

/** The statements of delivery's batch leases (delivery-lease.entity.ts), on the pool. */
export class DeliveryLeaseRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Renews the batches `leaseIds` of `owner` and the emails held under them (`emailIds[i]` under
   * `emailLeaseIds[i]`) for `seconds`; answers the batches still this process's. Planned for its
   * ids each time (delivery.repository.ts take says why it is not a prepared statement).
   */
  async renew(owner: string, seconds: number, leaseIds: string[], emailIds: string[], emailLeaseIds: string[]): Promise<Set<string>> {
    if (!leaseIds.length) return new Set();
    const rows = await sqlRows<{ id: string }>(this.em, RENEW, [
      seconds,
      textArray(leaseIds),
      textArray(emailIds),
      textArray(emailLeaseIds),
      textArray(PENDING_EMAIL),
      ...idRange(emailIds),
      owner,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  /** Up to `limit` batches whose owner stopped renewing them, now `owner`'s for `seconds`, to deliver and settle. */
  takeOver(owner: string, seconds: number, limit: number): Promise<LapsedBatch[]> {
    return sqlRows<LapsedBatch>(this.em, { name: 'postbox_delivery_take_over', text: TAKE_OVER }, [limit, owner, seconds]);
  }
}
