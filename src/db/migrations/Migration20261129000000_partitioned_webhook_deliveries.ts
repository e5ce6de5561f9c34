import { Migration } from '@mikro-orm/migrations';
import { firstWeeksSql } from '../partitions.js';

const DELIVERIES = { table: 'webhook_deliveries', idPrefix: 'msg_' };

/**
 * Webhook deliveries partitioned by week of their ids (`msg_` and a sortable id, db/partitions.ts),
 * as the webhook log is (Migration20261128230000_partitioned_webhook_attempts, whose functions
 * make the weeks). The table as it was becomes the default partition: its primary key and its
 * indexes by webhook and time and of pending deliveries are taken over by the parent's; the one
 * by webhook and event is built again without uniqueness (a unique index of a table partitioned
 * by id must hold the id), and a delivery stays one per webhook and event because its id is
 * fixed when its event is taken and every write of it conflicts on that id (webhook.entity.ts).
 */
export class Migration20261129000000_partitioned_webhook_deliveries extends Migration {

  override name = 'Migration20261129000000_partitioned_webhook_deliveries';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" rename to "webhook_deliveries_default";`);
    this.addSql(`alter table "webhook_deliveries_default" rename constraint "webhook_deliveries_pkey" to "webhook_deliveries_default_pkey";`);
    this.addSql(`alter index "webhook_deliveries_webhook_id_created_at_index" rename to "webhook_deliveries_default_webhook_id_created_at_idx";`);
    this.addSql(`alter index "webhook_deliveries_due_index" rename to "webhook_deliveries_default_next_attempt_at_idx";`);
    this.addSql(`create table "webhook_deliveries" (like "webhook_deliveries_default" including defaults including storage) partition by range ("id");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_pkey" primary key ("id");`);
    this.addSql(`create index "webhook_deliveries_webhook_id_created_at_index" on "webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_webhook_id_event_id_index" on "webhook_deliveries" ("webhook_id", "event_id");`);
    this.addSql(`alter table "webhook_deliveries" attach partition "webhook_deliveries_default" default;`);
    this.addSql(`alter table "webhook_deliveries_default" drop constraint "webhook_deliveries_webhook_id_event_id_unique";`);
    for (const sql of firstWeeksSql(DELIVERIES, Date.now())) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "webhook_deliveries_plain" (like "webhook_deliveries" including defaults including storage);`);
    this.addSql(`insert into "webhook_deliveries_plain" select * from "webhook_deliveries";`);
    this.addSql(`drop table "webhook_deliveries";`);
    this.addSql(`alter table "webhook_deliveries_plain" rename to "webhook_deliveries";`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_pkey" primary key ("id");`);
    this.addSql(`create index "webhook_deliveries_webhook_id_created_at_index" on "webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`);
  }

}
