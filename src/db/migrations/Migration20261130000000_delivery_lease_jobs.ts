import { Migration } from '@mikro-orm/migrations';

/**
 * A delivery batch's lease row names its owner (the worker process that renews it, then the one
 * that took it over) and the pg-boss job attempts it holds: the jobs are fetched and the row
 * written in one transaction, and whoever owns the row settles them, so a batch is never active
 * in pg-boss without a row another worker can take over (engines/delivery/delivery.loop.ts).
 */
export class Migration20261130000000_delivery_lease_jobs extends Migration {

  override name = 'Migration20261130000000_delivery_lease_jobs';

  override up(): void | Promise<void> {
    this.addSql(`alter table "delivery_leases" add column "owner" varchar(32) null, add column "jobs" jsonb not null default '[]';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "delivery_leases" drop column "owner", drop column "jobs";`);
  }

}
