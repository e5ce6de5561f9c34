import { Migration } from '@mikro-orm/migrations';

/**
 * Console login for account users: passwords, TOTP and recovery codes, password reset
 * links on `account_users`, and `user_sessions` (the sha256 of each session cookie).
 */
export class Migration20261125200000_user_login extends Migration {

  override name = 'Migration20261125200000_user_login';

  override up(): void | Promise<void> {
    this.addSql(`alter table "account_users"
      add column "password_hash" text null,
      add column "password_changed_at" timestamptz(6) null,
      add column "totp_secret" text null,
      add column "totp_pending" text null,
      add column "recovery_codes" text[] not null default '{}',
      add column "reset_hash" varchar(64) null,
      add column "reset_expires_at" timestamptz(6) null;`);
    // Login looks a person up by address across accounts; a reset link by its hash.
    this.addSql(`create index "account_users_email_index" on "account_users" ("email");`);
    this.addSql(`create unique index "account_users_reset_hash_unique" on "account_users" ("reset_hash");`);
    this.addSql(`create table "user_sessions" (
      "id" varchar(64) not null,
      "user_id" varchar(32) not null,
      "csrf_token" varchar(64) not null,
      "created_at" timestamptz(6) not null,
      "last_seen_at" timestamptz(6) not null,
      primary key ("id"));`);
    this.addSql(`create index "user_sessions_user_id_index" on "user_sessions" ("user_id");`);
    this.addSql(`alter table "user_sessions" add constraint "user_sessions_user_id_foreign" foreign key ("user_id") references "account_users" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user_sessions" cascade;`);
    this.addSql(`drop index if exists "account_users_reset_hash_unique";`);
    this.addSql(`drop index if exists "account_users_email_index";`);
    this.addSql(`alter table "account_users" drop column "password_hash", drop column "password_changed_at", drop column "totp_secret",
      drop column "totp_pending", drop column "recovery_codes", drop column "reset_hash", drop column "reset_expires_at";`);
  }

}
