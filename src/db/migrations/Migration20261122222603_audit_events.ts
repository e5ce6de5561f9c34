import { Migration } from '@mikro-orm/migrations';

export class Migration20261122222603_audit_events extends Migration {

  override name = 'Migration20261122222603_audit_events';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit_events" ("id" varchar(32) not null, "account_id" varchar(32) not null, "actor_type" varchar(20) not null, "actor_id" varchar(64) null, "actor_name" varchar(320) null, "action" varchar(40) not null, "subject_type" varchar(20) not null, "subject_id" varchar(32) not null, "domain_id" varchar(32) null, "changes" jsonb not null, "ip" varchar(45) null, "created_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "audit_events_account_id_subject_id_index" on "audit_events" ("account_id", "subject_id");`);
    this.addSql(`create index "audit_events_account_id_created_at_index" on "audit_events" ("account_id", "created_at");`);

    this.addSql(`alter table "audit_events" add constraint "audit_events_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_events" cascade;`);
  }

}
