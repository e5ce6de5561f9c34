import { Migration } from '@mikro-orm/migrations';

/**
 * domain_events becomes an outbox: the webhook dispatcher deletes the events it takes, in the
 * transaction that records their deliveries (engines/webhooks/dispatch.repository.ts TAKE_EVENTS), instead
 * of marking them dispatched. Nothing read a dispatched event again: its deliveries carry their
 * bodies, and retention only purged them. A mark was an update that could not be HOT (its column
 * is the queue index's predicate), so it wrote the whole row again with an entry in every index,
 * at several times a delete's PostgreSQL CPU per event (bench:webhooks). What stays in the
 * table is the backlog, so the queue index needs no predicate, and the index by account (only
 * retention used it) goes: every event written by a send or a delivery had an entry in it.
 */
export class Migration20261126100000_events_outbox extends Migration {

  override name = 'Migration20261126100000_events_outbox';

  override up(): void | Promise<void> {
    this.addSql(`delete from "domain_events" where "dispatched_at" is not null;`);
    this.addSql(`drop index if exists "domain_events_undispatched_index";`);
    this.addSql(`drop index if exists "domain_events_account_id_created_at_index";`);
    this.addSql(`alter table "domain_events" drop column "dispatched_at";`);
    this.addSql(`create index "domain_events_queue_index" on "domain_events" ("created_at", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "domain_events_queue_index";`);
    this.addSql(`alter table "domain_events" add "dispatched_at" timestamptz(6) null;`);
    this.addSql(`create index "domain_events_account_id_created_at_index" on "domain_events" ("account_id", "created_at");`);
    this.addSql(`create index "domain_events_undispatched_index" on "domain_events" ("created_at", "id") where "dispatched_at" is null;`);
  }

}
