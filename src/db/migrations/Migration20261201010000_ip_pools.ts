import { Migration } from '@mikro-orm/migrations';

/**
 * Source addresses (src/modules/ip-pools): the pool the operator gave an account or a domain, and
 * the warm-up of each address (delivery_sources).
 */
export class Migration20261201010000_ip_pools extends Migration {

  override name = 'Migration20261201010000_ip_pools';

  override up(): void | Promise<void> {
    this.addSql(`alter table "accounts" add column "ip_pool" varchar(64) null;`);
    this.addSql(`alter table "domains" add column "ip_pool" varchar(64) null;`);
    this.addSql(`create table "delivery_sources" ("address" varchar(64) not null, "warmup_started" date not null, "day" date not null, "sent" int not null, constraint "delivery_sources_pkey" primary key ("address"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "delivery_sources" cascade;`);
    this.addSql(`alter table "domains" drop column "ip_pool";`);
    this.addSql(`alter table "accounts" drop column "ip_pool";`);
  }

}
