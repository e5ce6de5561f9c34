import { Migration } from '@mikro-orm/migrations';

/**
 * The jobs a statement writes together with what causes them (a send's delivery job, written by
 * the acceptance statement), for the relay to move into pg-boss through its public API
 * (jobs/outbox.ts). A statement of ours never writes pg-boss's own tables, whose shape is the
 * package's to change. Rows are deleted as they are moved, so the table holds only the backlog:
 * the primary key is the relay's order and its only index.
 */
export class Migration20261128200000_job_outbox extends Migration {

  override name = 'Migration20261128200000_job_outbox';

  override up(): void | Promise<void> {
    this.addSql(`create table "job_outbox" (
      "id" bigint generated always as identity primary key,
      "queue" text not null,
      "data" jsonb not null,
      "start_after" timestamptz(6) null,
      "created_at" timestamptz(6) not null default now()
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "job_outbox";`);
  }

}
