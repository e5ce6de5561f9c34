import { Migration } from '@mikro-orm/migrations';

/**
 * Delivery updates every email twice: its claim (lease_until, and the Message-ID once) and its
 * outcome. Neither outcome column is indexed, so with room left in the row's page PostgreSQL
 * writes the new version beside the old one (a HOT update) instead of a new entry in each of
 * the table's six indexes. Pages filled to 70 % at insert leave that room; it applies to pages
 * written from now on.
 */
export class Migration20261126130000_emails_fillfactor extends Migration {

  override name = 'Migration20261126130000_emails_fillfactor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "emails" set (fillfactor = 70);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "emails" reset (fillfactor);`);
  }

}
