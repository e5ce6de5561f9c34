import { Migration } from '@mikro-orm/migrations';

/**
 * An event's payload is stored as the JSON text its producer wrote (`json`, not `jsonb`): the
 * webhook dispatcher splices that text into each delivery's body as it is (engines/webhooks/event.payload.ts
 * deliveryBody), where a jsonb value had to be parsed into objects and written out again for
 * every event. Nothing queries inside a payload. The table is the dispatcher's backlog, so the
 * rewrite is of the few events waiting.
 */
export class Migration20261126150000_events_json extends Migration {

  override name = 'Migration20261126150000_events_json';

  override up(): void | Promise<void> {
    this.addSql(`alter table "domain_events" alter column "payload" type json using "payload"::json;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "domain_events" alter column "payload" type jsonb using "payload"::jsonb;`);
  }

}
