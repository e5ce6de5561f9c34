import { Migration } from '@mikro-orm/migrations';

export class Migration20261122223000_webhook_url_255 extends Migration {

  override name = 'Migration20261122223000_webhook_url_255';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhooks" alter column "url" type varchar(255) using ("url"::varchar(255));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhooks" alter column "url" type varchar(191) using ("url"::varchar(191));`);
  }

}
