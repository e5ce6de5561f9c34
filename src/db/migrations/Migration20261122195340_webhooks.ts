import { Migration } from '@mikro-orm/migrations';

export class Migration20261122195340_webhooks extends Migration {

  override name = 'Migration20261122195340_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhooks" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "domain_id" varchar(32) not null, "name" varchar(191) not null, "url" varchar(191) not null, "events" text[] not null, "enabled" boolean not null default true, "editable" boolean not null default true, "secret_enc" text not null, "paused_reason" varchar(20) null, "paused_at" timestamptz(6) null, "notified_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "webhooks_account_id_created_at_index" on "webhooks" ("account_id", "created_at");`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_domain_id_url_unique" unique ("domain_id", "url");`);

    this.addSql(`create table "webhook_attempts" ("id" varchar(32) not null, "webhook_id" varchar(32) not null, "delivery_id" varchar(32) null, "type" varchar(64) not null, "attempted_at" timestamptz(6) not null, "success" boolean not null, "status" int null, "duration_ms" int not null default 0, "response_excerpt" varchar(1000) null, "error" varchar(1000) null, primary key ("id"));`);
    this.addSql(`create index "webhook_attempts_delivery_id_index" on "webhook_attempts" ("delivery_id");`);
    this.addSql(`create index "webhook_attempts_webhook_id_attempted_at_index" on "webhook_attempts" ("webhook_id", "attempted_at");`);

    this.addSql(`create table "webhook_deliveries" ("id" varchar(32) not null, "webhook_id" varchar(32) not null, "event_id" varchar(32) not null, "type" varchar(64) not null, "body" text not null, "state" varchar(20) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz(6) null, "last_status" int null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_webhook_id_created_at_index" on "webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_state_next_attempt_at_index" on "webhook_deliveries" ("state", "next_attempt_at");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`);

    this.addSql(`alter table "domain_events" add "dispatched_at" timestamptz(6) null;`);
    this.addSql(`create index "domain_events_dispatched_at_index" on "domain_events" ("dispatched_at");`);

    this.addSql(`alter table "webhooks" add constraint "webhooks_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_domain_id_foreign" foreign key ("domain_id") references "domains" ("id") on delete cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`drop table if exists "webhooks" cascade;`);
    this.addSql(`drop table if exists "webhook_attempts" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop index "domain_events_dispatched_at_index";`);
    this.addSql(`alter table "domain_events" drop column "dispatched_at";`);
  }

}
