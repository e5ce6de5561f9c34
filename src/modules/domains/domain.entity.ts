import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';

/** Per-domain sending and tracking switches; stored as one JSON object, always complete. */
export interface DomainSettings {
  send_paused: boolean;
  track_clicks: boolean;
  track_opens: boolean;
  track_unsubscribe: boolean;
  track_unsubscribe_html: string;
  track_unsubscribe_html_enabled: boolean;
  track_unsubscribe_plain: string;
  track_unsubscribe_plain_enabled: boolean;
  track_content: boolean;
  custom_tracking_enabled: boolean;
  custom_tracking_subdomain: string;
  return_path_subdomain: string;
  inbound_routing_enabled: boolean;
  inbound_routing_subdomain: string;
  precedence_bulk: boolean;
  ignore_duplicated_recipients: boolean;
}

export const DEFAULT_DOMAIN_SETTINGS: DomainSettings = {
  send_paused: false,
  track_clicks: true,
  track_opens: true,
  track_unsubscribe: false,
  track_unsubscribe_html:
    '<p>To unsubscribe from these emails, <a href="{{unsubscribe}}">click here</a>.</p>',
  track_unsubscribe_html_enabled: true,
  track_unsubscribe_plain: 'To unsubscribe from these emails, open this link: {{unsubscribe}}',
  track_unsubscribe_plain_enabled: true,
  // On: bodies are kept after delivery for the email log; off drops them once delivered.
  track_content: true,
  custom_tracking_enabled: false,
  custom_tracking_subdomain: 'links',
  return_path_subdomain: 'mta',
  // On, so routes work once created; off stops every inbound route of the domain (550 at RCPT TO).
  inbound_routing_enabled: true,
  inbound_routing_subdomain: 'inbound',
  precedence_bulk: false,
  ignore_duplicated_recipients: false,
};

@Entity({ tableName: 'domains' })
export class Domain extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  /** Globally unique: a domain can be claimed by one account only. */
  @Property({ type: 'string', length: 253, unique: true })
  name!: string;

  @Property({ type: 'boolean', nullable: true })
  dkim: boolean | null = null;

  @Property({ type: 'boolean', nullable: true })
  spf: boolean | null = null;

  @Property({ type: 'boolean', nullable: true })
  mx: boolean | null = null;

  @Property({ type: 'boolean', nullable: true })
  tracking: boolean | null = null;

  @Property({ type: 'boolean', nullable: true })
  rp_cname: boolean | null = null;

  @Property({ type: 'boolean' })
  is_verified: Opt<boolean> = false;

  /**
   * Verified on creation by DOMAIN_VERIFICATION=trust (the sandbox), not through DNS. Such a
   * domain sends only into the capture transport; passing the DNS check clears it.
   */
  @Property({ type: 'boolean', default: false })
  trusted: Opt<boolean> = false;

  @Property({ type: 'boolean' })
  is_cname_verified: Opt<boolean> = false;

  @Property({ type: 'boolean' })
  is_dns_active: Opt<boolean> = false;

  @Property({ type: 'json' })
  settings: Opt<DomainSettings> = { ...DEFAULT_DOMAIN_SETTINGS };

  @Property({ type: 'string', length: 63 })
  dkim_selector!: string;

  @Property({ type: 'text' })
  dkim_public_key!: string;

  /** AES-256-GCM with a key derived from APP_SECRET (see lib/secrets.ts). */
  @Property({ type: 'text' })
  dkim_private_key_enc!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  last_checked_at: Date | null = null;

  /** The pool of source addresses its mail leaves from (IP_POOLS), over its account's. */
  @Property({ type: 'string', length: 64, nullable: true })
  ip_pool: string | null = null;
}
