import { Migration } from '@mikro-orm/migrations';

export class Migration20261122213949_dmarc_reports extends Migration {

  override name = 'Migration20261122213949_dmarc_reports';

  override up(): void | Promise<void> {
    this.addSql(`create table "dmarc_reports" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "monitor_id" varchar(32) not null, "org_name" text not null, "org_email" text null, "report_id" text not null, "date_begin" timestamptz(6) not null, "date_end" timestamptz(6) not null, "policy" jsonb not null, "records" int not null default 0, "total_volume" bigint not null default '0', "received_via" varchar(10) not null, primary key ("id"));`);
    this.addSql(`alter table "dmarc_reports" add constraint "dmarc_reports_monitor_id_org_name_report_id_unique" unique ("monitor_id", "org_name", "report_id");`);

    this.addSql(`create table "dmarc_report_rows" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "monitor_id" varchar(32) not null, "report_id" varchar(32) not null, "date_begin" timestamptz(6) not null, "org_name" text not null, "source_ip" varchar(45) not null, "ip_domain" text null, "country_code" varchar(2) null, "count" int not null, "disposition" varchar(10) not null, "aligned_dkim" boolean not null, "aligned_spf" boolean not null, "passed_dkim" boolean not null, "passed_spf" boolean not null, "override_reason" text null, "override_comment" text null, "header_from" text not null, "envelope_from" text null, "spf_auth" jsonb not null, "dkim_auth" jsonb not null, primary key ("id"));`);
    this.addSql(`create index "dmarc_report_rows_monitor_id_source_ip_date_begin_index" on "dmarc_report_rows" ("monitor_id", "source_ip", "date_begin");`);
    this.addSql(`create index "dmarc_report_rows_monitor_id_date_begin_index" on "dmarc_report_rows" ("monitor_id", "date_begin");`);
    this.addSql(`create index "dmarc_report_rows_report_id_index" on "dmarc_report_rows" ("report_id");`);

    this.addSql(`create table "dmarc_favorites" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "monitor_id" varchar(32) not null, "ip" varchar(45) not null, primary key ("id"));`);
    this.addSql(`alter table "dmarc_favorites" add constraint "dmarc_favorites_monitor_id_ip_unique" unique ("monitor_id", "ip");`);

    // Monitors made before reports existed get their key here.
    this.addSql(`alter table "dmarc_monitors" add "report_key" varchar(32) null;`);
    this.addSql(`update "dmarc_monitors" set "report_key" = substr(md5(random()::text || "id"), 1, 16);`);
    this.addSql(`alter table "dmarc_monitors" alter column "report_key" set not null;`);
    this.addSql(`alter table "dmarc_monitors" add constraint "dmarc_monitors_report_key_unique" unique ("report_key");`);

    this.addSql(`alter table "dmarc_reports" add constraint "dmarc_reports_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "dmarc_reports" add constraint "dmarc_reports_monitor_id_foreign" foreign key ("monitor_id") references "dmarc_monitors" ("id") on delete cascade;`);

    this.addSql(`alter table "dmarc_report_rows" add constraint "dmarc_report_rows_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    this.addSql(`alter table "dmarc_report_rows" add constraint "dmarc_report_rows_monitor_id_foreign" foreign key ("monitor_id") references "dmarc_monitors" ("id") on delete cascade;`);
    this.addSql(`alter table "dmarc_report_rows" add constraint "dmarc_report_rows_report_id_foreign" foreign key ("report_id") references "dmarc_reports" ("id") on delete cascade;`);

    this.addSql(`alter table "dmarc_favorites" add constraint "dmarc_favorites_monitor_id_foreign" foreign key ("monitor_id") references "dmarc_monitors" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dmarc_report_rows" drop constraint "dmarc_report_rows_report_id_foreign";`);

    this.addSql(`drop table if exists "dmarc_reports" cascade;`);
    this.addSql(`drop table if exists "dmarc_report_rows" cascade;`);
    this.addSql(`drop table if exists "dmarc_favorites" cascade;`);

    this.addSql(`alter table "dmarc_monitors" drop constraint "dmarc_monitors_report_key_unique";`);
    this.addSql(`alter table "dmarc_monitors" drop column "report_key";`);
  }

}
