import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122165136_initial } from './Migration20261122165136_initial.js';
import { Migration20261122170003_recipients } from './Migration20261122170003_recipients.js';
import { Migration20261122181103_templates } from './Migration20261122181103_templates.js';
import { Migration20261122181356_suppressions } from './Migration20261122181356_suppressions.js';
import { Migration20261122190156_sending } from './Migration20261122190156_sending.js';
import { Migration20261122193338_message_template_index } from './Migration20261122193338_message_template_index.js';
import { Migration20261122193930_stat_shards } from './Migration20261122193930_stat_shards.js';
import { Migration20261122195340_webhooks } from './Migration20261122195340_webhooks.js';
import { Migration20261122195941_inbound } from './Migration20261122195941_inbound.js';
import { Migration20261122202644_verification } from './Migration20261122202644_verification.js';
import { Migration20261122202754_blocklist } from './Migration20261122202754_blocklist.js';
import { Migration20261122204930_verification_lists } from './Migration20261122204930_verification_lists.js';
import { Migration20261122205020_dmarc } from './Migration20261122205020_dmarc.js';
import { Migration20261122213949_dmarc_reports } from './Migration20261122213949_dmarc_reports.js';
import { Migration20261122215006_verification_list_run } from './Migration20261122215006_verification_list_run.js';
import { Migration20261122215441_sms } from './Migration20261122215441_sms.js';
import { Migration20261122223000_webhook_url_255 } from './Migration20261122223000_webhook_url_255.js';
import { Migration20261122222603_audit_events } from './Migration20261122222603_audit_events.js';
import { Migration20261122222631_api_counters } from './Migration20261122222631_api_counters.js';
import { Migration20261124100000_inbound_forward_destinations } from './Migration20261124100000_inbound_forward_destinations.js';
import { Migration20261124140000_account_rate } from './Migration20261124140000_account_rate.js';

/** Every migration, in order. `npm run migration:create -- <name>` writes new ones; add them here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122165136_initial', class: Migration20261122165136_initial },
  { name: 'Migration20261122170003_recipients', class: Migration20261122170003_recipients },
  { name: 'Migration20261122181103_templates', class: Migration20261122181103_templates },
  { name: 'Migration20261122181356_suppressions', class: Migration20261122181356_suppressions },
  { name: 'Migration20261122190156_sending', class: Migration20261122190156_sending },
  { name: 'Migration20261122193338_message_template_index', class: Migration20261122193338_message_template_index },
  { name: 'Migration20261122193930_stat_shards', class: Migration20261122193930_stat_shards },
  { name: 'Migration20261122195340_webhooks', class: Migration20261122195340_webhooks },
  { name: 'Migration20261122195941_inbound', class: Migration20261122195941_inbound },
  { name: 'Migration20261122202644_verification', class: Migration20261122202644_verification },
  { name: 'Migration20261122202754_blocklist', class: Migration20261122202754_blocklist },
  { name: 'Migration20261122204930_verification_lists', class: Migration20261122204930_verification_lists },
  { name: 'Migration20261122205020_dmarc', class: Migration20261122205020_dmarc },
  { name: 'Migration20261122213949_dmarc_reports', class: Migration20261122213949_dmarc_reports },
  { name: 'Migration20261122215006_verification_list_run', class: Migration20261122215006_verification_list_run },
  { name: 'Migration20261122215441_sms', class: Migration20261122215441_sms },
  { name: 'Migration20261122223000_webhook_url_255', class: Migration20261122223000_webhook_url_255 },
  { name: 'Migration20261122222603_audit_events', class: Migration20261122222603_audit_events },
  { name: 'Migration20261122222631_api_counters', class: Migration20261122222631_api_counters },
  { name: 'Migration20261124140000_account_rate', class: Migration20261124140000_account_rate },
  { name: 'Migration20261124100000_inbound_forward_destinations', class: Migration20261124100000_inbound_forward_destinations },
];
