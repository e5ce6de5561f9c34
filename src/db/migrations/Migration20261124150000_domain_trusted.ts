import { Migration } from '@mikro-orm/migrations';

export class Migration20261124150000_domain_trusted extends Migration {

  override name = 'Migration20261124150000_domain_trusted';

  override up(): void | Promise<void> {
    this.addSql(`alter table "domains" add column "trusted" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "domains" drop column "trusted";`);
  }

}
