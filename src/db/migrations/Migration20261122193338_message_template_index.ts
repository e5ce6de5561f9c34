import { Migration } from '@mikro-orm/migrations';

export class Migration20261122193338_message_template_index extends Migration {

  override name = 'Migration20261122193338_message_template_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "messages_template_id_index" on "messages" ("template_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "messages_template_id_index";`);
  }

}
