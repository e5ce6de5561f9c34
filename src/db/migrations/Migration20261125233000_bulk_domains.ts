import { Migration } from '@mikro-orm/migrations';

/** A bulk send keeps the several domains a console user was limited to, applied again by its job. */
export class Migration20261125233000_bulk_domains extends Migration {

  override name = 'Migration20261125233000_bulk_domains';

  override up(): void | Promise<void> {
    this.addSql(`alter table "bulk_emails" add column "token_domain_ids" text[] null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bulk_emails" drop column "token_domain_ids";`);
  }

}
