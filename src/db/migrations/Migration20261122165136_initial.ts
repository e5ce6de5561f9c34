import { Migration } from '@mikro-orm/migrations';

export class Migration20261122165136_initial extends Migration {

  override name = 'Migration20261122165136_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "name" varchar(191) not null, "plan" varchar(20) not null default 'free', "verification_credits" int not null default 0, primary key ("id"));`);

    this.addSql(`create table "account_users" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "email" varchar(320) not null, "name" varchar(191) not null default '', "last_name" varchar(191) not null default '', "avatar" text null, "two_fa" boolean not null default false, "role" varchar(50) not null, "permissions" text[] not null, "domain_ids" text[] not null, "template_ids" text[] not null, "requires_periodic_password_change" boolean not null default false, primary key ("id"));`);
    this.addSql(`create index "account_users_account_id_index" on "account_users" ("account_id");`);
    this.addSql(`alter table "account_users" add constraint "account_users_account_id_email_unique" unique ("account_id", "email");`);

    this.addSql(`create table "captured_mails" ("id" varchar(32) not null, "to" varchar(320) not null, "from" varchar(320) not null, "subject" text not null, "text" text not null default '', "html" text null, "kind" varchar(64) not null default 'system', "created_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "captured_mails_to_index" on "captured_mails" ("to");`);

    this.addSql(`create table "domains" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "name" varchar(253) not null, "dkim" boolean null, "spf" boolean null, "mx" boolean null, "tracking" boolean null, "rp_cname" boolean null, "is_verified" boolean not null default false, "is_cname_verified" boolean not null default false, "is_dns_active" boolean not null default false, "settings" jsonb not null, "dkim_selector" varchar(63) not null, "dkim_public_key" text not null, "dkim_private_key_enc" text not null, "last_checked_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "domains_account_id_index" on "domains" ("account_id");`);
    this.addSql(`alter table "domains" add constraint "domains_name_unique" unique ("name");`);

    this.addSql(`create table "api_tokens" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "name" varchar(50) not null, "token_hash" varchar(64) not null, "status" varchar(10) not null default 'unpause', "scopes" text[] not null, "domain_id" varchar(32) null, "last_used_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "api_tokens_account_id_index" on "api_tokens" ("account_id");`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "domain_events" ("id" varchar(32) not null, "account_id" varchar(32) null, "domain_id" varchar(32) null, "type" varchar(64) not null, "payload" jsonb not null, "created_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "domain_events_account_id_created_at_index" on "domain_events" ("account_id", "created_at");`);

    this.addSql(`create table "invites" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "email" varchar(320) not null, "role" varchar(50) not null, "permissions" text[] not null, "domain_ids" text[] not null, "template_ids" text[] not null, "requires_periodic_password_change" boolean not null default false, "resends" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "invites_account_id_index" on "invites" ("account_id");`);
    this.addSql(`alter table "invites" add constraint "invites_account_id_email_unique" unique ("account_id", "email");`);

    this.addSql(`create table "maintenance_windows" ("id" varchar(32) not null, "note" varchar(500) not null default '', "started_at" timestamptz(6) not null, "ended_at" timestamptz(6) null, primary key ("id"));`);

    this.addSql(`create table "sender_identities" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "email" varchar(320) not null, "name" varchar(191) not null, "reply_to_email" varchar(320) null, "reply_to_name" varchar(191) null, "is_verified" boolean not null default false, "verified_at" timestamptz(6) null, "resends" int not null default 0, "add_note" boolean not null default false, "personal_note" varchar(250) null, primary key ("id"));`);
    this.addSql(`create index "sender_identities_account_id_index" on "sender_identities" ("account_id");`);
    this.addSql(`alter table "sender_identities" add constraint "sender_identities_account_id_email_unique" unique ("account_id", "email");`);

    this.addSql(`create table "sms_numbers" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "telephone_number" varchar(32) not null, "paused" boolean not null default false, primary key ("id"));`);
    this.addSql(`create index "sms_numbers_account_id_index" on "sms_numbers" ("account_id");`);
    this.addSql(`alter table "sms_numbers" add constraint "sms_numbers_telephone_number_unique" unique ("telephone_number");`);

    this.addSql(`create table "smtp_users" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "name" varchar(50) not null, "username" varchar(320) not null, "password_hash" text not null, "enabled" boolean not null default true, "accessed_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "smtp_users_account_id_index" on "smtp_users" ("account_id");`);
    this.addSql(`alter table "smtp_users" add constraint "smtp_users_username_unique" unique ("username");`);

    this.addSql(`alter table "account_users" add constraint "account_users_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "domains" add constraint "domains_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);

    this.addSql(`alter table "invites" add constraint "invites_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "sender_identities" add constraint "sender_identities_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "sender_identities" add constraint "sender_identities_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);

    this.addSql(`alter table "sms_numbers" add constraint "sms_numbers_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "smtp_users" add constraint "smtp_users_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "smtp_users" add constraint "smtp_users_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "account_users" drop constraint "account_users_account_id_foreign";`);
    this.addSql(`alter table "domains" drop constraint "domains_account_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_account_id_foreign";`);
    this.addSql(`alter table "invites" drop constraint "invites_account_id_foreign";`);
    this.addSql(`alter table "sender_identities" drop constraint "sender_identities_account_id_foreign";`);
    this.addSql(`alter table "sms_numbers" drop constraint "sms_numbers_account_id_foreign";`);
    this.addSql(`alter table "smtp_users" drop constraint "smtp_users_account_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_domain_id_foreign";`);
    this.addSql(`alter table "sender_identities" drop constraint "sender_identities_domain_id_foreign";`);
    this.addSql(`alter table "smtp_users" drop constraint "smtp_users_domain_id_foreign";`);

    this.addSql(`drop table if exists "accounts" cascade;`);
    this.addSql(`drop table if exists "account_users" cascade;`);
    this.addSql(`drop table if exists "captured_mails" cascade;`);
    this.addSql(`drop table if exists "domains" cascade;`);
    this.addSql(`drop table if exists "api_tokens" cascade;`);
    this.addSql(`drop table if exists "domain_events" cascade;`);
    this.addSql(`drop table if exists "invites" cascade;`);
    this.addSql(`drop table if exists "maintenance_windows" cascade;`);
    this.addSql(`drop table if exists "sender_identities" cascade;`);
    this.addSql(`drop table if exists "sms_numbers" cascade;`);
    this.addSql(`drop table if exists "smtp_users" cascade;`);
  }

}
