import { Migration } from '@mikro-orm/migrations';

/**
 * One row per delivery batch while a worker delivers it (engines/delivery/delivery-lease.entity.ts):
 * when the worker dies, another takes its messages over as soon as the row's lease runs out. The
 * table holds only the batches in flight; takeover reads it whole, so it needs no index of its own.
 */
export class Migration20261128210000_delivery_leases extends Migration {

  override name = 'Migration20261128210000_delivery_leases';

  override up(): void | Promise<void> {
    this.addSql(`create table "delivery_leases" ("id" varchar(32) not null, "lease_until" timestamptz(6) not null, "message_ids" text[] not null, "final_ids" text[] not null default '{}', primary key ("id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "delivery_leases";`);
  }

}
