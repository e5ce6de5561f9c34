import { Migration } from '@mikro-orm/migrations';

/** The shared pace of each destination site (src/modules/mail/delivery-site.entity.ts). */
export class Migration20261201000000_delivery_sites extends Migration {

  override name = 'Migration20261201000000_delivery_sites';

  override up(): void | Promise<void> {
    this.addSql(`create table "delivery_sites" ("site" varchar(255) not null, "source" varchar(64) not null, "minute_at" timestamptz(6) null, "hour_at" timestamptz(6) null, "slow_level" smallint not null default 0, "slowed_at" timestamptz(6) null, "suspended_until" timestamptz(6) null, constraint "delivery_sites_pkey" primary key ("site", "source"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "delivery_sites" cascade;`);
  }

}
