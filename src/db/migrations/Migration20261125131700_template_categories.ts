import { Migration } from '@mikro-orm/migrations';

/**
 * A template keeps every category it is given (SPEC.md's `categories` is a list), in order, where
 * it kept only the first. The one category of each existing template becomes a list of one.
 */
export class Migration20261125131700_template_categories extends Migration {

  override name = 'Migration20261125131700_template_categories';

  override up(): void | Promise<void> {
    this.addSql(`alter table "templates" add column "category_ids" text[] not null default '{}';`);
    this.addSql(`update "templates" set "category_ids" = array["category_id"]::text[] where "category_id" is not null;`);
    this.addSql(`alter table "templates" drop constraint "templates_category_id_foreign";`);
    this.addSql(`alter table "templates" drop column "category_id";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "templates" add column "category_id" varchar(32) null;`);
    this.addSql(`update "templates" t set "category_id" = c."id" from "template_categories" c where c."id" = t."category_ids"[1];`);
    this.addSql(`alter table "templates" add constraint "templates_category_id_foreign" foreign key ("category_id") references "template_categories" ("id") on delete set null;`);
    this.addSql(`alter table "templates" drop column "category_ids";`);
  }

}
