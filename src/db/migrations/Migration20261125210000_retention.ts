import { Migration } from '@mikro-orm/migrations';

/**
 * Per-plan retention: each message carries when it may be purged (`purge_after`), fixed when it
 * is accepted by the account's plan then (accounts/plans.ts RETENTION_DAYS), and indexed so the
 * purge's batches find the oldest without scanning the table. Messages from before this release
 * get the figure of their account's plan now, from their send time (the figures as of this
 * migration are written here on purpose: a migration is history, later changes to plans.ts do
 * not rewrite it).
 */
export class Migration20261125210000_retention extends Migration {

  override name = 'Migration20261125210000_retention';

  override up(): void | Promise<void> {
    this.addSql(`alter table "messages" add "purge_after" timestamptz(6) null;`);
    this.addSql(`update "messages" m set "purge_after" = greatest(m."created_at", coalesce(m."send_at", m."created_at"))
      + make_interval(days => case a."plan" when 'free' then 7 when 'starter' then 30 when 'professional' then 90 else 365 end)
      from "accounts" a where a."id" = m."account_id";`);
    this.addSql(`create index "messages_purge_after_index" on "messages" ("purge_after");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "messages_purge_after_index";`);
    this.addSql(`alter table "messages" drop column "purge_after";`);
  }

}
