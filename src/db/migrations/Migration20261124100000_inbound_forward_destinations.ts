import { Migration } from '@mikro-orm/migrations';

/** Forward destinations an account has had confirmed (modules/inbound/inbound.destination.ts). */
export class Migration20261124100000_inbound_forward_destinations extends Migration {

  override name = 'Migration20261124100000_inbound_forward_destinations';

  override up(): void | Promise<void> {
    this.addSql(`create table "inbound_forward_destinations" ("id" varchar(32) not null, "created_at" timestamptz(6) not null, "updated_at" timestamptz(6) not null, "account_id" varchar(32) not null, "email" varchar(320) not null, "confirmed_at" timestamptz(6) null, "mailed_at" timestamptz(6) null, primary key ("id"));`);
    this.addSql(`create index "inbound_forward_destinations_account_id_index" on "inbound_forward_destinations" ("account_id");`);
    this.addSql(`alter table "inbound_forward_destinations" add constraint "inbound_forward_destinations_account_id_email_unique" unique ("account_id", "email");`);
    this.addSql(`alter table "inbound_forward_destinations" add constraint "inbound_forward_destinations_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "inbound_forward_destinations" cascade;`);
  }

}
