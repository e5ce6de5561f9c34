import { Migration } from '@mikro-orm/migrations';

export class Migration20261122193930_stat_shards extends Migration {

  override name = 'Migration20261122193930_stat_shards';

  override up(): void | Promise<void> {
    this.addSql(`alter table "activity_stats" drop constraint "activity_stats_account_id_day_domain_id_type_tags_d3c52_unique";`);
    this.addSql(`alter table "activity_stats" add "shard" smallint not null default 0;`);
    this.addSql(`alter table "activity_stats" add constraint "activity_stats_account_id_day_domain_id_type_tags_7e9b4_unique" unique ("account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type", "shard");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "activity_stats" drop constraint "activity_stats_account_id_day_domain_id_type_tags_7e9b4_unique";`);
    this.addSql(`alter table "activity_stats" drop column "shard";`);
    this.addSql(`alter table "activity_stats" add constraint "activity_stats_account_id_day_domain_id_type_tags_d3c52_unique" unique ("account_id", "day", "domain_id", "type", "tags", "country", "ua_name", "ua_type");`);
  }

}
