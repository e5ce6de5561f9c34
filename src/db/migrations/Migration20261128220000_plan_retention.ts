import { Migration } from '@mikro-orm/migrations';

/**
 * The operator's retention days per plan (modules/retention/retention.entity.ts). A change tells
 * every process's sender cache to forget what it keeps (a `sender_changed` notice with no account:
 * every account), since acceptance stamps `purge_after` from the days it keeps with the plan.
 */
export class Migration20261128220000_plan_retention extends Migration {

  override name = 'Migration20261128220000_plan_retention';

  override up(): void | Promise<void> {
    this.addSql(`create table "plan_retention" ("plan" varchar(32) not null, "days" int not null check ("days" between 1 and 3650), "updated_at" timestamptz(6) not null, primary key ("plan"));`);
    this.addSql(`create function postbox_retention_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('postbox_events', json_build_object('topic', 'sender_changed', 'detail', json_build_object())::text);
        return null;
      end $$;`);
    this.addSql(`create trigger plan_retention_changed after insert or update or delete on "plan_retention"
      for each statement execute function postbox_retention_changed();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "plan_retention";`);
    this.addSql(`drop function if exists postbox_retention_changed();`);
  }

}
