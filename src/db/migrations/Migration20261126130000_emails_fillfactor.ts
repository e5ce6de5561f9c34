import { Migration } from '@mikro-orm/migrations';

/**
 * Delivery updates every email twice: its claim (lease_until) and its outcome. Neither changes an
 * indexed column now that the Message-ID (`smtp_message_id`, indexed for bounces) is written at
 * acceptance, so with room left in the row's page PostgreSQL writes the new version beside the old
 * one (a HOT update) instead of a new entry in each of the table's six indexes. Pages filled to
 * 70 % at insert leave that room (pages written from now on). The emails still to be delivered
 * get their Message-ID here, as acceptance now writes it.
 */
export class Migration20261126130000_emails_fillfactor extends Migration {

  override name = 'Migration20261126130000_emails_fillfactor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "emails" set (fillfactor = 70);`);
    this.addSql(`update "emails" e set "smtp_message_id" = '<' || e."id" || '@' || d."name" || '>'
      from "domains" d
      where d."id" = e."domain_id" and e."smtp_message_id" is null and e."status" in ('queued', 'scheduled', 'paused', 'deferred');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "emails" reset (fillfactor);`);
  }

}
