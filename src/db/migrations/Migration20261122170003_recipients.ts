import { Migration } from '@mikro-orm/migrations';

export class Migration20261122170003_recipients extends Migration {

  override name = 'Migration20261122170003_recipients';

  override up(): void | Promise<void> {
    this.addSql(`create table "recipients" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "email" varchar(320) not null, "deleted_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "recipients_account_id_created_at_index" on "recipients" ("account_id", "created_at");`);
    this.addSql(`alter table "recipients" add constraint "recipients_domain_id_email_unique" unique ("domain_id", "email");`);

    this.addSql(`alter table "recipients" add constraint "recipients_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "recipients" add constraint "recipients_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "recipients" cascade;`);
  }

}
