import { Migration } from '@mikro-orm/migrations';
import { firstWeeksSql, PARTITION_FUNCTIONS } from '../partitions.js';

const ATTEMPTS = { table: 'webhook_attempts', idPrefix: '' };

/**
 * The webhook log (webhook_attempts) partitioned by week of its ids (db/partitions.ts), so that
 * retention drops whole weeks instead of deleting rows. The table as it was becomes the default
 * partition, attached without a copy (its primary key and index are taken over by the parent's);
 * this week and the next four are made here, moving their rows out of it. Rows whose ids fall in
 * no week (random ids written before ids were sortable) stay in the default, which retention
 * still purges row by row.
 */
export class Migration20261128230000_partitioned_webhook_attempts extends Migration {

  override name = 'Migration20261128230000_partitioned_webhook_attempts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_attempts" rename to "webhook_attempts_default";`);
    this.addSql(`alter table "webhook_attempts_default" rename constraint "webhook_attempts_pkey" to "webhook_attempts_default_pkey";`);
    this.addSql(`alter index "webhook_attempts_webhook_id_attempted_at_index" rename to "webhook_attempts_default_webhook_id_attempted_at_idx";`);
    this.addSql(`create table "webhook_attempts" (like "webhook_attempts_default" including defaults including storage) partition by range ("id");`);
    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_pkey" primary key ("id");`);
    this.addSql(`create index "webhook_attempts_webhook_id_attempted_at_index" on "webhook_attempts" ("webhook_id", "attempted_at");`);
    this.addSql(`alter table "webhook_attempts" attach partition "webhook_attempts_default" default;`);
    for (const fn of PARTITION_FUNCTIONS) this.addSql(fn);
    for (const sql of firstWeeksSql(ATTEMPTS, Date.now())) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "webhook_attempts_plain" (like "webhook_attempts" including defaults including storage);`);
    this.addSql(`insert into "webhook_attempts_plain" select * from "webhook_attempts";`);
    this.addSql(`drop table "webhook_attempts";`);
    this.addSql(`alter table "webhook_attempts_plain" rename to "webhook_attempts";`);
    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_pkey" primary key ("id");`);
    this.addSql(`create index "webhook_attempts_webhook_id_attempted_at_index" on "webhook_attempts" ("webhook_id", "attempted_at");`);
    this.addSql(`drop function if exists postbox_partition_guard(text, text, text, text);`);
    this.addSql(`drop function if exists postbox_partition_attach(text, text, text, text);`);
    this.addSql(`drop function if exists postbox_partition_drop(text, text);`);
  }

}
