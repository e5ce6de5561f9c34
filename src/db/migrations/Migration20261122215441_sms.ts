import { Migration } from '@mikro-orm/migrations';

export class Migration20261122215441_sms extends Migration {

  override name = 'Migration20261122215441_sms';

  override up(): void | Promise<void> {
    this.addSql(`create table "sms_messages" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "sms_number_id" varchar(32) not null, "from" varchar(32) not null, "to" text[] not null, "text" text not null, "personalization" jsonb not null, primary key ("id"));`);
    this.addSql(`create index "sms_messages_account_id_created_at_index" on "sms_messages" ("account_id", "created_at");`);

    this.addSql(`create table "sms_inbound_messages" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "sms_number_id" varchar(32) not null, "from" varchar(32) not null, "to" varchar(32) not null, "text" text not null, "provider_id" varchar(64) null, primary key ("id"));`);
    this.addSql(`alter table "sms_inbound_messages" add constraint "sms_inbound_messages_provider_id_unique" unique ("provider_id");`);
    this.addSql(`create index "sms_inbound_messages_sms_number_id_created_at_index" on "sms_inbound_messages" ("sms_number_id", "created_at");`);

    this.addSql(`create table "sms_inbounds" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "sms_number_id" varchar(32) not null, "name" varchar(191) not null, "filter_comparer" varchar(20) null, "filter_value" varchar(255) null, "forward_url" varchar(255) not null, "enabled" boolean not null default true, "webhook_id" varchar(32) not null, primary key ("id"));`);
    this.addSql(`create index "sms_inbounds_account_id_created_at_index" on "sms_inbounds" ("account_id", "created_at");`);

    this.addSql(`create table "sms_recipients" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "number" varchar(32) not null, "status" varchar(10) not null default 'active', primary key ("id"));`);
    this.addSql(`create index "sms_recipients_account_id_created_at_index" on "sms_recipients" ("account_id", "created_at");`);
    this.addSql(`alter table "sms_recipients" add constraint "sms_recipients_account_id_number_unique" unique ("account_id", "number");`);

    this.addSql(`create table "sms" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "message_id" varchar(32) not null, "sms_number_id" varchar(32) not null, "recipient_id" varchar(32) not null, "from" varchar(32) not null, "to" varchar(32) not null, "text" text not null, "status" varchar(20) not null default 'queued', "segment_count" int not null default 1, "error_type" varchar(64) null, "error_description" text null, "provider_id" varchar(64) null, primary key ("id"));`);
    this.addSql(`alter table "sms" add constraint "sms_provider_id_unique" unique ("provider_id");`);
    this.addSql(`create index "sms_message_id_created_at_index" on "sms" ("message_id", "created_at");`);
    this.addSql(`create index "sms_account_id_created_at_index" on "sms" ("account_id", "created_at");`);

    this.addSql(`create table "sms_activities" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "sms_number_id" varchar(32) not null, "sms_id" varchar(32) not null, "status" varchar(20) not null, primary key ("id"));`);
    this.addSql(`create index "sms_activities_sms_number_id_created_at_index" on "sms_activities" ("sms_number_id", "created_at");`);
    this.addSql(`create index "sms_activities_account_id_created_at_index" on "sms_activities" ("account_id", "created_at");`);

    this.addSql(`alter table "webhooks" add "kind" varchar(20) not null default 'email', add "sms_number_id" varchar(32) null;`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);
    this.addSql(`alter table "webhooks" alter column "domain_id" drop not null;`);
    this.addSql(`create index "webhooks_sms_number_id_index" on "webhooks" ("sms_number_id");`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_sms_number_id_kind_url_unique" unique ("sms_number_id", "kind", "url");`);

    this.addSql(`alter table "sms_messages" add constraint "sms_messages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sms_messages" add constraint "sms_messages_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);

    this.addSql(`alter table "sms_inbound_messages" add constraint "sms_inbound_messages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sms_inbound_messages" add constraint "sms_inbound_messages_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);

    this.addSql(`alter table "sms_inbounds" add constraint "sms_inbounds_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sms_inbounds" add constraint "sms_inbounds_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);

    this.addSql(`alter table "sms_recipients" add constraint "sms_recipients_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "sms" add constraint "sms_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sms" add constraint "sms_message_id_foreign" foreign key ("message_id") references "sms_messages" ("id") on delete cascade;`);
    this.addSql(`alter table "sms" add constraint "sms_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);
    this.addSql(`alter table "sms" add constraint "sms_recipient_id_foreign" foreign key ("recipient_id") references "sms_recipients" ("id") on delete cascade;`);

    this.addSql(`alter table "sms_activities" add constraint "sms_activities_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sms_activities" add constraint "sms_activities_sms_number_id_foreign" foreign key ("sms_number_id") references "sms_numbers" ("id") on delete cascade;`);
    this.addSql(`alter table "sms_activities" add constraint "sms_activities_sms_id_foreign" foreign key ("sms_id") references "sms" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sms" drop constraint "sms_message_id_foreign";`);
    this.addSql(`alter table "sms" drop constraint "sms_recipient_id_foreign";`);
    this.addSql(`alter table "sms_activities" drop constraint "sms_activities_sms_id_foreign";`);

    this.addSql(`drop table if exists "sms_messages" cascade;`);
    this.addSql(`drop table if exists "sms_inbound_messages" cascade;`);
    this.addSql(`drop table if exists "sms_inbounds" cascade;`);
    this.addSql(`drop table if exists "sms_recipients" cascade;`);
    this.addSql(`drop table if exists "sms" cascade;`);
    this.addSql(`drop table if exists "sms_activities" cascade;`);

    this.addSql(`alter table "webhooks" drop constraint "webhooks_sms_number_id_foreign";`);

    this.addSql(`drop index "webhooks_sms_number_id_index";`);
    this.addSql(`alter table "webhooks" drop constraint "webhooks_sms_number_id_kind_url_unique";`);
    this.addSql(`alter table "webhooks" drop column "kind", drop column "sms_number_id";`);
    this.addSql(`alter table "webhooks" alter column "domain_id" set not null;`);
  }

}
