import { Migration } from '@mikro-orm/migrations';

export class Migration20261122181103_templates extends Migration {

  override name = 'Migration20261122181103_templates';

  override up(): void | Promise<void> {
    this.addSql(`create table "template_categories" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "name" varchar(50) not null, primary key ("id"));`);
    this.addSql(`create index "template_categories_account_id_index" on "template_categories" ("account_id");`);
    this.addSql(`alter table "template_categories" add constraint "template_categories_account_id_name_unique" unique ("account_id", "name");`);

    this.addSql(`create table "templates" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) null, "category_id" varchar(32) null, "name" varchar(50) not null default 'Template', "description" varchar(500) null, "type" varchar(20) not null default 'html', "html" text not null, "text" text not null, "default_subject" varchar(998) null, "default_from_email" varchar(320) null, "default_from_name" varchar(191) null, "tags" text[] not null, "variables" jsonb null, "image_path" varchar(500) null, "created_via" varchar(10) not null default 'api', primary key ("id"));`);
    this.addSql(`create index "templates_account_id_created_at_index" on "templates" ("account_id", "created_at");`);

    this.addSql(`alter table "template_categories" add constraint "template_categories_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);

    this.addSql(`alter table "templates" add constraint "templates_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "templates" add constraint "templates_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete set null;`);
    this.addSql(`alter table "templates" add constraint "templates_category_id_foreign" foreign key ("category_id") references "template_categories" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "templates" drop constraint "templates_category_id_foreign";`);

    this.addSql(`drop table if exists "template_categories" cascade;`);
    this.addSql(`drop table if exists "templates" cascade;`);
  }

}
