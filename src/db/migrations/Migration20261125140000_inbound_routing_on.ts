import { Migration } from '@mikro-orm/migrations';

/**
 * A domain's `inbound_routing_enabled` now switches its inbound routes (off: 550 at RCPT TO), and
 * new domains start with it on. It used to do nothing while every domain stored `false`, so every
 * existing domain turns it on: routes that took mail before the upgrade still take it.
 */
export class Migration20261125140000_inbound_routing_on extends Migration {

  override name = 'Migration20261125140000_inbound_routing_on';

  override up(): void | Promise<void> {
    this.addSql(`update "domains" set "settings" = jsonb_set("settings", '{inbound_routing_enabled}', 'true'::jsonb);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "domains" set "settings" = jsonb_set("settings", '{inbound_routing_enabled}', 'false'::jsonb);`);
  }

}
