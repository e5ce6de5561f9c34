import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook dispatcher takes the oldest undispatched events, in order. An index on
 * `dispatched_at` alone made it fetch and sort the whole backlog (and every dispatched event's
 * entry stayed in it) for each batch of 200; a partial index of the undispatched events in
 * their order hands it the batch straight, and an event leaves it once dispatched.
 */
export class Migration20261125235000_events_undispatched extends Migration {

  override name = 'Migration20261125235000_events_undispatched';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "domain_events_dispatched_at_index";`);
    this.addSql(`create index "domain_events_undispatched_index" on "domain_events" ("created_at", "id") where "dispatched_at" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "domain_events_undispatched_index";`);
    this.addSql(`create index "domain_events_dispatched_at_index" on "domain_events" ("dispatched_at");`);
  }

}
