import { Migration } from '@mikro-orm/migrations';

/** A bulk send keeps the templates a console user was limited to, applied again by its job. */
export class Migration20261128100000_bulk_templates extends Migration {

  override name = 'Migration20261128100000_bulk_templates';

  override up(): void | Promise<void> {
    this.addSql(`alter table "bulk_emails" add column "token_template_ids" text[] null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bulk_emails" drop column "token_template_ids";`);
  }

}
