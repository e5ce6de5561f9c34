import { Migration } from '@mikro-orm/migrations';

/**
 * A deleted webhook's log (webhook_attempts) goes with it, as its deliveries already did: the
 * attempts had no foreign key, so they outlived their webhook, out of every API's reach and of
 * retention (which finds them through their webhook). The statement trigger on webhooks deletes
 * both now, and the orphans left so far go here. The index of attempts by delivery goes: no
 * statement reads attempts by delivery, and every attempt logged wrote an entry in it.
 */
export class Migration20261126101000_webhook_attempts_cascade extends Migration {

  override name = 'Migration20261126101000_webhook_attempts_cascade';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_attempts_delivery_id_index";`);
    this.addSql(`delete from "webhook_attempts" a where not exists (select 1 from "webhooks" w where w."id" = a."webhook_id");`);
    this.addSql(`create or replace function "webhook_deliveries_of_deleted_webhooks"() returns trigger language plpgsql as $$
      begin
        delete from "webhook_deliveries" d using "deleted_webhooks" g where d."webhook_id" = g."id";
        delete from "webhook_attempts" a using "deleted_webhooks" g where a."webhook_id" = g."id";
        return null;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "webhook_deliveries_of_deleted_webhooks"() returns trigger language plpgsql as $$
      begin
        delete from "webhook_deliveries" d using "deleted_webhooks" g where d."webhook_id" = g."id";
        return null;
      end $$;`);
    this.addSql(`create index "webhook_attempts_delivery_id_index" on "webhook_attempts" ("delivery_id");`);
  }

}
