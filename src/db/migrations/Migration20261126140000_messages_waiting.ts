import { Migration } from '@mikro-orm/migrations';

/**
 * Delivery moves every message from `queued` to `sending` to `sent`. The index of messages by
 * domain and status, which serves only the waiting ones (`scheduled`, `paused`: the domain list's
 * not-queued counts, the release of a paused domain), made each of those moves a non-HOT update:
 * a new entry in each of the table's six indexes. `waiting` is that condition as a stored
 * generated column (messages/message.status.ts WAITING_MESSAGE); it stays false through delivery's moves, so the
 * partial index on it no longer stops them from being HOT, and the table is filled to 70 % at
 * insert to leave the page room for the new versions. Adding the column rewrites the table once.
 */
export class Migration20261126140000_messages_waiting extends Migration {

  override name = 'Migration20261126140000_messages_waiting';

  override up(): void | Promise<void> {
    this.addSql(`alter table "messages" add column "waiting" boolean generated always as ("status" in ('scheduled', 'paused')) stored;`);
    this.addSql(`drop index if exists "messages_domain_id_status_index";`);
    this.addSql(`create index "messages_domain_id_waiting_index" on "messages" ("domain_id") where "waiting";`);
    this.addSql(`alter table "messages" set (fillfactor = 70);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "messages" reset (fillfactor);`);
    this.addSql(`drop index if exists "messages_domain_id_waiting_index";`);
    this.addSql(`alter table "messages" drop column "waiting";`);
    this.addSql(`create index "messages_domain_id_status_index" on "messages" ("domain_id", "status");`);
  }

}
