import { Migration } from '@mikro-orm/migrations';

/**
 * Delivery claims pending emails with a lease instead of holding their rows locked across the
 * SMTP exchange (engines/delivery/delivery.repository.ts): a worker that dies lets its lease run
 * out, and another worker takes the emails up.
 */
export class Migration20261125100000_email_lease extends Migration {

  override name = 'Migration20261125100000_email_lease';

  override up(): void | Promise<void> {
    this.addSql(`alter table "emails" add column "lease_until" timestamptz(6) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "emails" drop column "lease_until";`);
  }

}
