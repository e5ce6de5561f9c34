import { Migration } from '@mikro-orm/migrations';

export class Migration20261122190156_sending extends Migration {

  override name = 'Migration20261122190156_sending';

  override up(): void | Promise<void> {
    this.addSql(`create table "activity_stats" ("id" bigserial primary key, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "day" date not null, "type" varchar(30) not null, "tags" text[] not null, "country" varchar(2) not null default '', "ua_name" varchar(100) not null default '', "ua_type" varchar(20) not null default '', "count" int not null default 0);`);
    this.addSql(`alter table "activity_stats" add constraint "activity_stats_account_id_day_domain_id_type_tags_d3c52_unique" unique ("account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type");`);

    this.addSql(`create table "bulk_emails" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "token_domain_id" varchar(32) null, "state" varchar(20) not null default 'queued', "payload" jsonb null, "total_recipients_count" int not null default 0, "suppressed_recipients_count" int not null default 0, "suppressed_recipients" jsonb null, "processed_count" int not null default 0, "validation_errors_count" int not null default 0, "validation_errors" jsonb null, "messages_id" jsonb null, primary key ("id"));`);
    this.addSql(`create index "bulk_emails_account_id_created_at_index" on "bulk_emails" ("account_id", "created_at");`);

    this.addSql(`create table "idempotency_keys" ("account_id" varchar(32) not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "response" jsonb not null, "created_at" timestamptz(6) not null, primary key ("account_id", "key"));`);
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);

    this.addSql(`create table "messages" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "bulk_email_id" varchar(32) null, "template_id" varchar(32) null, "from_email" varchar(320) not null, "from_name" varchar(191) null, "reply_to" jsonb null, "cc" jsonb not null, "bcc" jsonb not null, "subject" text not null, "text" text null, "html" text null, "tags" text[] not null, "language" varchar(10) null, "personalization" jsonb not null, "settings" jsonb not null, "headers" jsonb not null, "in_reply_to" varchar(998) null, "references" jsonb not null, "list_unsubscribe" varchar(990) null, "precedence_bulk" boolean null, "send_at" timestamptz(6) null, "status" varchar(20) not null default 'queued', "status_message" varchar(500) null, primary key ("id"));`);
    this.addSql(`create index "messages_bulk_email_id_index" on "messages" ("bulk_email_id");`);
    this.addSql(`create index "messages_domain_id_status_index" on "messages" ("domain_id", "status");`);
    this.addSql(`create index "messages_account_id_created_at_index" on "messages" ("account_id", "created_at");`);

    this.addSql(`create table "message_attachments" ("id" varchar(32) not null, "message_id" varchar(32) not null, "position" int not null, "filename" varchar(255) not null, "disposition" varchar(20) not null default 'attachment', "content_id" varchar(256) null, "content" bytea not null, primary key ("id"));`);
    this.addSql(`create index "message_attachments_message_id_index" on "message_attachments" ("message_id");`);

    this.addSql(`create table "emails" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "message_id" varchar(32) not null, "recipient_id" varchar(32) not null, "position" int not null default 0, "to_email" varchar(320) not null, "to_name" varchar(191) null, "subject" text not null, "tags" text[] not null, "status" varchar(20) not null default 'queued', "suppression_reason" varchar(30) null, "smtp_message_id" varchar(255) null, "attempts" int not null default 0, "last_response" text null, "opened_at" timestamptz(6) null, "clicked_at" timestamptz(6) null, "unsubscribed_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "emails_message_id_index" on "emails" ("message_id");`);
    this.addSql(`create index "emails_recipient_id_index" on "emails" ("recipient_id");`);
    this.addSql(`create index "emails_smtp_message_id_index" on "emails" ("smtp_message_id");`);
    this.addSql(`create index "emails_domain_id_created_at_index" on "emails" ("domain_id", "created_at");`);
    this.addSql(`create index "emails_account_id_created_at_index" on "emails" ("account_id", "created_at");`);

    this.addSql(`create table "activities" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "email_id" varchar(32) not null, "type" varchar(30) not null, "suppression_reason" varchar(30) null, "data" jsonb not null, primary key ("id"));`);
    this.addSql(`create index "activities_email_id_index" on "activities" ("email_id");`);
    this.addSql(`create index "activities_account_id_created_at_index" on "activities" ("account_id", "created_at");`);
    this.addSql(`create index "activities_domain_id_created_at_index" on "activities" ("domain_id", "created_at");`);

    this.addSql(`alter table "captured_mails" add "email_id" varchar(32) null, add "raw" text null;`);
    this.addSql(`create index "captured_mails_email_id_index" on "captured_mails" ("email_id");`);

    this.addSql(`alter table "bulk_emails" add constraint "bulk_emails_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "messages" add constraint "messages_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "messages" add constraint "messages_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);

    this.addSql(`alter table "message_attachments" add constraint "message_attachments_message_id_foreign" foreign key ("message_id") references "messages" ("id") on delete cascade;`);

    this.addSql(`alter table "emails" add constraint "emails_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "emails" add constraint "emails_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
    this.addSql(`alter table "emails" add constraint "emails_message_id_foreign" foreign key ("message_id") references "messages" ("id") on delete cascade;`);
    this.addSql(`alter table "emails" add constraint "emails_recipient_id_foreign" foreign key ("recipient_id") references "recipients" ("id") on delete cascade;`);

    this.addSql(`alter table "activities" add constraint "activities_email_id_foreign" foreign key ("email_id") references "emails" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "message_attachments" drop constraint "message_attachments_message_id_foreign";`);
    this.addSql(`alter table "emails" drop constraint "emails_message_id_foreign";`);
    this.addSql(`alter table "activities" drop constraint "activities_email_id_foreign";`);

    this.addSql(`drop table if exists "activity_stats" cascade;`);
    this.addSql(`drop table if exists "bulk_emails" cascade;`);
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "messages" cascade;`);
    this.addSql(`drop table if exists "message_attachments" cascade;`);
    this.addSql(`drop table if exists "emails" cascade;`);
    this.addSql(`drop table if exists "activities" cascade;`);

    this.addSql(`drop index "captured_mails_email_id_index";`);
    this.addSql(`alter table "captured_mails" drop column "email_id", drop column "raw";`);
  }

}
