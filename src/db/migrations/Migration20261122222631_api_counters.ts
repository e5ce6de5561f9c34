import { Migration } from '@mikro-orm/migrations';

export class Migration20261122222631_api_counters extends Migration {

  override name = 'Migration20261122222631_api_counters';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_quota_counters" ("account_id" varchar(32) not null, "day" date not null, "hits" int not null, primary key ("account_id"));`);

    this.addSql(`create table "api_rate_counters" ("token_id" varchar(32) not null, "window_end" timestamptz(6) not null, "hits" int not null, primary key ("token_id"));`);

    this.addSql(`alter table "api_quota_counters" add constraint "api_quota_counters_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_rate_counters" add constraint "api_rate_counters_token_id_foreign" foreign key ("token_id") references "api_tokens" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_quota_counters" cascade;`);
    this.addSql(`drop table if exists "api_rate_counters" cascade;`);
  }

}
