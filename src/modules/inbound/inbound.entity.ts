import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { newId } from '../../lib/ids.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

export interface InboundFilterRule {
  comparer: string;
  value: string;
  /** match_header only: the header name. */
  key?: string | null;
}

export interface InboundFilter {
  type: string;
  filters: InboundFilterRule[];
}

/** Where matched mail goes. Webhook forwards are signed with their own secret (sealed with APP_SECRET). */
export interface InboundForward {
  id: string;
  type: 'email' | 'webhook';
  value: string;
  secret_enc?: string | null;
}

/** An inbound route (COMPAT.md "Inbound email routes"): mail received for an address, filtered and forwarded. */
@Entity({ tableName: 'inbounds' })
@Index({ properties: ['account', 'created_at'] })
export class Inbound extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  @Property({ type: 'string', length: 191 })
  name!: string;

  /** The route's own address, always reachable: `<random>@<INBOUND_MX_HOST>`. */
  @Property({ type: 'string', length: 320, unique: true })
  address!: string;

  /** When true, mail for `inbound_domain` (an MX pointing at the service) is routed too. */
  @Property({ type: 'boolean' })
  domain_enabled: boolean = false;

  @Property({ type: 'string', length: 253, nullable: true })
  @Index()
  inbound_domain: string | null = null;

  @Property({ type: 'integer' })
  inbound_priority: number = 0;

  @Property({ type: 'json' })
  catch_filter: InboundFilter = { type: 'catch_all', filters: [] };

  @Property({ type: 'json' })
  match_filter: InboundFilter = { type: 'match_all', filters: [] };

  @Property({ type: 'json' })
  forwards: InboundForward[] = [];

  @Property({ type: 'boolean' })
  enabled: boolean = true;
}

/** One message received for a route, and what became of it. */
@Entity({ tableName: 'inbound_messages' })
@Index({ properties: ['inbound_id', 'created_at'] })
export class InboundMessage {
  @PrimaryKey({ type: 'string', length: 32 })
  id: string = newId(24);

  @Property({ type: 'string', length: 32 })
  inbound_id!: string;

  @Property({ type: 'string', length: 32 })
  account_id!: string;

  @Property({ type: 'string', length: 32 })
  domain_id!: string;

  @Property({ type: 'string', length: 320 })
  mail_from!: string;

  @Property({ type: 'json' })
  rcpt_to: string[] = [];

  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  @Property({ type: 'integer' })
  size: number = 0;

  /** received, forwarded, rejected, failed */
  @Property({ type: 'string', length: 20 })
  status: string = 'received';

  @Property({ type: 'string', length: 500, nullable: true })
  reason: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Date = new Date();
}
