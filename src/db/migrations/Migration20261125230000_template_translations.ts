import { Migration } from '@mikro-orm/migrations';

/** Template translations: one per template and language, deleted with their template. */
export class Migration20261125230000_template_translations extends Migration {

  override name = 'Migration20261125230000_template_translations';

  override up(): void | Promise<void> {
    this.addSql(`create table "template_translations" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "template_id" varchar(32) not null, "language" varchar(10) not null, "subject" varchar(998) null, "html" text not null, "text" text not null, primary key ("id"));`);
    this.addSql(`alter table "template_translations" add constraint "template_translations_template_id_language_unique" unique ("template_id", "language");`);
    this.addSql(`alter table "template_translations" add constraint "template_translations_template_id_foreign" foreign key ("template_id") references "templates" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "template_translations" cascade;`);
  }

}
