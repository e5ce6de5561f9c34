import { Migration } from '@mikro-orm/migrations';

/**
 * Analytics group by day in a time zone the caller names, so the daily rollup keeps the UTC hour
 * an activity happened in (a local day starts at some UTC hour). Rows written before this keep
 * hour 0: their day is still right in UTC, and off by the zone's offset at most elsewhere.
 */
export class Migration20261125150500_stats_hour extends Migration {

  override name = 'Migration20261125150500_stats_hour';

  override up(): void | Promise<void> {
    this.addSql(`alter table "activity_stats" drop constraint "activity_stats_account_id_day_domain_id_type_tags_7e9b4_unique";`);
    this.addSql(`alter table "activity_stats" add "hour" smallint not null default 0;`);
    this.addSql(`alter table "activity_stats" add constraint "activity_stats_key" unique ("account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type", "shard", "hour");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "activity_stats" drop constraint "activity_stats_key";`);
    // Folds the hours of a day back into one row instead of losing them.
    const cols = `"account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type", "shard"`;
    this.addSql(`create temporary table "stats_by_day" as select ${cols}, sum("count")::int as "count" from "activity_stats" group by ${cols};`);
    this.addSql(`delete from "activity_stats";`);
    this.addSql(`alter table "activity_stats" drop column "hour";`);
    this.addSql(`insert into "activity_stats" (${cols}, "count") select ${cols}, "count" from "stats_by_day";`);
    this.addSql(`drop table "stats_by_day";`);
    this.addSql(`alter table "activity_stats" add constraint "activity_stats_account_id_day_domain_id_type_tags_7e9b4_unique" unique ("account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type", "shard");`);
  }

}
