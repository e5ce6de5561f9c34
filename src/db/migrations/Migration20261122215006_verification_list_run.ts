import { Migration } from '@mikro-orm/migrations';

export class Migration20261122215006_verification_list_run extends Migration {

  override name = 'Migration20261122215006_verification_list_run';

  override up(): void | Promise<void> {
    this.addSql(`alter table "email_verification_lists" add "run_id" varchar(32) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "email_verification_lists" drop column "run_id";`);
  }

}
