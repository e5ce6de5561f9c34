import type { Opt } from '@mikro-orm/core';
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

/** What became of a received message: taken (`received`), sent on to every destination, refused, or not all forwards went out. */
export const INBOUND_MESSAGE = { received: 'received', forwarded: 'forwarded', rejected: 'rejected', failed: 'failed' } as const;
export type InboundMessageStatus = (typeof INBOUND_MESSAGE)[keyof typeof INBOUND_MESSAGE];

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
  domain_enabled: Opt<boolean> = false;

  @Property({ type: 'string', length: 253, nullable: true })
  @Index()
  inbound_domain: string | null = null;

  @Property({ type: 'integer' })
  inbound_priority: Opt<number> = 0;

  @Property({ type: 'json' })
  catch_filter: Opt<InboundFilter> = { type: 'catch_all', filters: [] };

  @Property({ type: 'json' })
  match_filter: Opt<InboundFilter> = { type: 'match_all', filters: [] };

  @Property({ type: 'json' })
  forwards: Opt<InboundForward[]> = [];

  @Property({ type: 'boolean' })
  enabled: Opt<boolean> = true;
}

/** One message received for a route, and what became of it. */
@Entity({ tableName: 'inbound_messages' })
@Index({ properties: ['inbound_id', 'created_at'] })
export class InboundMessage {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId(24);

  @Property({ type: 'string', length: 32 })
  inbound_id!: string;

  @Property({ type: 'string', length: 32 })
  account_id!: string;

  @Property({ type: 'string', length: 32 })
  domain_id!: string;

  @Property({ type: 'string', length: 320 })
  mail_from!: string;

  @Property({ type: 'json' })
  rcpt_to: Opt<string[]> = [];

  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  @Property({ type: 'integer' })
  size: Opt<number> = 0;

  @Property({ type: 'string', length: 20 })
  status: Opt<InboundMessageStatus> = INBOUND_MESSAGE.received;

  @Property({ type: 'string', length: 500, nullable: true })
  reason: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();
}
