import { Migration } from '@mikro-orm/migrations';

/**
 * A webhook's deliveries go with it through a statement trigger on webhooks, instead of a foreign
 * key: the key checked every delivery written, one lookup and row lock of its webhook per row
 * (a large share of a delivered row's insert: bench:webhooks), where the engine's statements lock the few
 * webhooks of a batch once (engines/webhooks/dispatch.repository.ts, lease.repository.ts). Deleting a
 * webhook, or the account, domain or SMS number it belongs to, still deletes its deliveries.
 */
export class Migration20261126011000_webhook_deliveries_cascade extends Migration {

  override name = 'Migration20261126011000_webhook_deliveries_cascade';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint if exists "webhook_deliveries_webhook_id_foreign";`);
    this.addSql(`create or replace function "webhook_deliveries_of_deleted_webhooks"() returns trigger language plpgsql as $$
      begin
        delete from "webhook_deliveries" d using "deleted_webhooks" g where d."webhook_id" = g."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "webhooks_delete_deliveries" after delete on "webhooks" referencing old table as "deleted_webhooks" for each statement execute function "webhook_deliveries_of_deleted_webhooks"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "webhooks_delete_deliveries" on "webhooks";`);
    this.addSql(`drop function if exists "webhook_deliveries_of_deleted_webhooks"();`);
    this.addSql(`delete from "webhook_deliveries" d where not exists (select 1 from "webhooks" w where w."id" = d."webhook_id");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`);
  }

}
