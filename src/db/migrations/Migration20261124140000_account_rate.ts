import { Migration } from '@mikro-orm/migrations';

export class Migration20261124140000_account_rate extends Migration {

  override name = 'Migration20261124140000_account_rate';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_quota_counters" add column "rate_window_end" timestamptz(6) null, add column "rate_hits" int not null default 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_quota_counters" drop column "rate_window_end", drop column "rate_hits";`);
  }

}
