import { Migration } from '@mikro-orm/migrations';

export class Migration20261122195941_inbound extends Migration {

  override name = 'Migration20261122195941_inbound';

  override up(): void | Promise<void> {
    this.addSql(`create table "inbounds" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "name" varchar(191) not null, "address" varchar(320) not null, "domain_enabled" boolean not null default false, "inbound_domain" varchar(253) null, "inbound_priority" int not null default 0, "catch_filter" jsonb not null, "match_filter" jsonb not null, "forwards" jsonb not null, "enabled" boolean not null default true, primary key ("id"));`);
    this.addSql(`alter table "inbounds" add constraint "inbounds_address_unique" unique ("address");`);
    this.addSql(`create index "inbounds_inbound_domain_index" on "inbounds" ("inbound_domain");`);
    this.addSql(`create index "inbounds_account_id_created_at_index" on "inbounds" ("account_id", "created_at");`);

    this.addSql(`create table "inbound_messages" ("id" varchar(32) not null, "inbound_id" varchar(32) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "mail_from" varchar(320) not null, "rcpt_to" jsonb not null, "subject" text null, "size" int not null default 0, "status" varchar(20) not null default 'received', "reason" varchar(500) null, "created_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "inbound_messages_inbound_id_created_at_index" on "inbound_messages" ("inbound_id", "created_at");`);

    this.addSql(`alter table "inbounds" add constraint "inbounds_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "inbounds" add constraint "inbounds_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "inbounds" cascade;`);
    this.addSql(`drop table if exists "inbound_messages" cascade;`);
  }

}
