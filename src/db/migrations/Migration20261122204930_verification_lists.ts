import { Migration } from '@mikro-orm/migrations';

export class Migration20261122204930_verification_lists extends Migration {

  override name = 'Migration20261122204930_verification_lists';

  override up(): void | Promise<void> {

    this.addSql(`create table "email_verification_lists" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "name" varchar(255) not null, "source" varchar(20) not null default 'api', "status" varchar(20) not null default 'created', "total" int not null default 0, "credits_reserved" int not null default 0, "verification_started" timestamptz(6) null, "verification_ended" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "email_verification_lists_account_id_created_at_index" on "email_verification_lists" ("account_id", "created_at");`);

    this.addSql(`alter table "email_verification_lists" add constraint "email_verification_lists_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_verification_lists" cascade;`);
  }

}
