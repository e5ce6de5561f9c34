import { Migration } from '@mikro-orm/migrations';

/**
 * `track_content` now decides whether a message's bodies are kept once it is delivered
 * (`messages.content_cleared_at` says when they were dropped), and new domains start with it on.
 * It used to do nothing while every domain stored `false` and every body was kept, so every
 * existing domain turns it on: an upgrade drops nobody's content until they switch it off.
 */
export class Migration20261125220000_track_content extends Migration {

  override name = 'Migration20261125220000_track_content';

  override up(): void | Promise<void> {
    this.addSql(`alter table "messages" add column "content_cleared_at" timestamptz(6) null;`);
    this.addSql(`update "domains" set "settings" = jsonb_set("settings", '{track_content}', 'true'::jsonb);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "domains" set "settings" = jsonb_set("settings", '{track_content}', 'false'::jsonb);`);
    this.addSql(`alter table "messages" drop column "content_cleared_at";`);
  }

}
