import { Migration } from '@mikro-orm/migrations';

export class Migration20261122202754_blocklist extends Migration {

  override name = 'Migration20261122202754_blocklist';

  override up(): void | Promise<void> {
    this.addSql(`create table "blocklist_monitors" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "parent_id" varchar(32) null, "name" varchar(255) not null, "address" varchar(255) not null, "cidr" varchar(64) null, "type" varchar(10) not null, "in_progress" boolean not null default true, "notify" boolean not null default false, "notify_email" varchar(255) null, "notify_address" varchar(500) null, "forwards" jsonb not null, "blocklisted" boolean not null default false, "last_checks_count" int not null default 0, "children_count" int not null default 0, "last_check" timestamptz(6) null, "next_check" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "blocklist_monitors_parent_id_index" on "blocklist_monitors" ("parent_id");`);
    this.addSql(`create index "blocklist_monitors_next_check_index" on "blocklist_monitors" ("next_check");`);
    this.addSql(`create index "blocklist_monitors_account_id_address_index" on "blocklist_monitors" ("account_id", "address");`);
    this.addSql(`create index "blocklist_monitors_account_id_created_at_index" on "blocklist_monitors" ("account_id", "created_at");`);

    this.addSql(`create table "blocklist_hits" ("id" varchar(32) not null, "monitor_id" varchar(32) not null, "blocklist_host" varchar(253) not null, "address" varchar(255) not null, "listed_at" timestamptz(6) not null, "delisted_at" timestamptz(6) null, "last_checked_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "blocklist_hits_monitor_id_delisted_at_index" on "blocklist_hits" ("monitor_id", "delisted_at");`);

    this.addSql(`alter table "blocklist_monitors" add constraint "blocklist_monitors_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "blocklist_monitors" add constraint "blocklist_monitors_parent_id_foreign" foreign key ("parent_id") references "blocklist_monitors" ("id") on delete cascade;`);

    this.addSql(`alter table "blocklist_hits" add constraint "blocklist_hits_monitor_id_foreign" foreign key ("monitor_id") references "blocklist_monitors" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "blocklist_monitors" drop constraint "blocklist_monitors_parent_id_foreign";`);
    this.addSql(`alter table "blocklist_hits" drop constraint "blocklist_hits_monitor_id_foreign";`);

    this.addSql(`drop table if exists "blocklist_monitors" cascade;`);
    this.addSql(`drop table if exists "blocklist_hits" cascade;`);
  }

}
