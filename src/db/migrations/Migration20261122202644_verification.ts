import { Migration } from '@mikro-orm/migrations';

export class Migration20261122202644_verification extends Migration {

  override name = 'Migration20261122202644_verification';

  override up(): void | Promise<void> {
    this.addSql(`create table "email_verifications" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "kind" varchar(10) not null default 'async', "list_id" varchar(32) null, "address" varchar(320) not null, "status" varchar(20) not null default 'queued', "result" varchar(20) null, "error" text null, "suggestion" varchar(320) null, "mx" varchar(255) null, "verified_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "email_verifications_list_id_index" on "email_verifications" ("list_id");`);
    this.addSql(`create index "email_verifications_account_id_created_at_index" on "email_verifications" ("account_id", "created_at");`);

    this.addSql(`alter table "email_verifications" add constraint "email_verifications_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_verifications" cascade;`);
  }

}
