import { Migration } from '@mikro-orm/migrations';

export class Migration20261122181356_suppressions extends Migration {

  override name = 'Migration20261122181356_suppressions';

  override up(): void | Promise<void> {
    this.addSql(`create table "suppressions" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) null, "list" varchar(20) not null, "type" varchar(10) null, "pattern" varchar(1000) null, "recipient_id" varchar(32) null, "reason" text null, "on_hold_until" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "suppressions_domain_id_list_index" on "suppressions" ("domain_id", "list");`);
    this.addSql(`create index "suppressions_account_id_list_created_at_index" on "suppressions" ("account_id", "list", "created_at");`);

    this.addSql(`alter table "suppressions" add constraint "suppressions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "suppressions" add constraint "suppressions_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
    this.addSql(`alter table "suppressions" add constraint "suppressions_recipient_id_foreign" foreign key ("recipient_id") references "recipients" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "suppressions" cascade;`);
  }

}
