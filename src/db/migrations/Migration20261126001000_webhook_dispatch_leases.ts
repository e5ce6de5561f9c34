import { Migration } from '@mikro-orm/migrations';

/**
 * A dispatch batch's deliveries are written once, with their first attempt's outcome; meanwhile
 * one row per batch records that they are owed, so a worker that dies mid-batch loses nothing
 * (webhooks/dispatch-lease.entity.ts).
 */
export class Migration20261126001000_webhook_dispatch_leases extends Migration {

  override name = 'Migration20261126001000_webhook_dispatch_leases';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_dispatch_leases" ("id" varchar(32) not null, "lease_until" timestamptz(6) not null, "created_at" timestamptz(6) not null, "delivery_ids" text[] not null, "webhook_ids" text[] not null, "event_ids" text[] not null, "types" text[] not null, "bodies" text[] not null, primary key ("id"));`);
    this.addSql(`create index "webhook_dispatch_leases_lease_until_index" on "webhook_dispatch_leases" ("lease_until");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_dispatch_leases" cascade;`);
  }

}
