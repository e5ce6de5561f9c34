import { Migration } from '@mikro-orm/migrations';

export class Migration20261122205020_dmarc extends Migration {

  override name = 'Migration20261122205020_dmarc';

  override up(): void | Promise<void> {
    this.addSql(`create table "dmarc_monitors" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "wanted_dmarc_record" varchar(1000) not null, "dmarc_record" text not null default '', "dmarc_valid" boolean not null default false, "dmarc_record_checked_at" timestamptz(6) null, "spf_record" text null, "spf_status" varchar(20) not null default 'not_found', primary key ("id"));`);
    this.addSql(`alter table "dmarc_monitors" add constraint "dmarc_monitors_domain_id_unique" unique ("domain_id");`);
    this.addSql(`create index "dmarc_monitors_dmarc_record_checked_at_index" on "dmarc_monitors" ("dmarc_record_checked_at");`);
    this.addSql(`create index "dmarc_monitors_account_id_created_at_index" on "dmarc_monitors" ("account_id", "created_at");`);

    this.addSql(`alter table "dmarc_monitors" add constraint "dmarc_monitors_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "dmarc_monitors" add constraint "dmarc_monitors_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dmarc_monitors" cascade;`);
  }

}
