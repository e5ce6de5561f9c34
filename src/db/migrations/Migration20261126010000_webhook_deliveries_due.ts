import { Migration } from '@mikro-orm/migrations';

/**
 * The claim of due webhook deliveries reads pending ones by next_attempt_at; every other state
 * (delivered, failed, gave_up: almost every row) was in that index too, one more entry written
 * per delivery for nothing. A partial index of the pending ones replaces it.
 */
export class Migration20261126010000_webhook_deliveries_due extends Migration {

  override name = 'Migration20261126010000_webhook_deliveries_due';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_state_next_attempt_at_index";`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_due_index";`);
    this.addSql(`create index "webhook_deliveries_state_next_attempt_at_index" on "webhook_deliveries" ("state", "next_attempt_at");`);
  }

}
