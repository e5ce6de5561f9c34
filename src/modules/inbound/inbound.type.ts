import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { decrypt } from '../../lib/secrets.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { Inbound } from './inbound.entity.js';
import type { Confirmation } from './inbound.destination.js';
import type { StoredFilter } from './inbound.match.js';
import { PageMeta } from '../../graphql/pagination.js';

@ObjectType('InboundFilterRule')
export class InboundFilterRuleType {
  @Field() comparer!: string;
  @Field() value!: string;
  @Field(() => String, { nullable: true, description: 'match_header only: the header name.' }) key!: string | null;
}

@ObjectType('InboundFilter')
export class InboundFilterType {
  @Field() type!: string;
  @Field(() => [InboundFilterRuleType]) filters!: InboundFilterRuleType[];
}

@ObjectType('InboundFilterRow', { description: 'One filter in the flat list clients of this API family read.' })
export class InboundFilterRowType {
  @Field() type!: string;
  @Field(() => String, { nullable: true }) key!: string | null;
  @Field(() => String, { nullable: true }) comparer!: string | null;
  @Field(() => String, { nullable: true }) value!: string | null;
}

@ObjectType('InboundForward')
export class InboundForwardType {
  @Field(() => ID) id!: string;
  @Field() type!: string;
  @Field() value!: string;
  @Field(() => String, { nullable: true, description: 'Webhook forwards: the signing secret of their requests.' })
  secret!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Email forwards: why mail may go to the address: `domain` (on a verified domain of the account), `confirmed` (its owner ' +
      'opened the link mailed when the route was saved), or `pending` (nothing is forwarded to it yet). Null for webhooks. GraphQL only.',
  })
  confirmation!: string | null;
}

@ObjectType('InboundMx', { description: 'The MX record inbound_domain needs.' })
export class InboundMxType {
  @Field(() => Int) priority!: number;
  @Field() target!: string;
}

@ObjectType('Inbound', { description: 'An inbound route: mail received for its address (or inbound domain), filtered and forwarded.' })
export class InboundType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'The route\'s own address; mail to it is always routed here.' }) address!: string;
  @Field(() => DomainRef) domain!: DomainRef;
  @Field() domain_enabled!: boolean;
  @Field(() => String, { nullable: true }) inbound_domain!: string | null;
  @Field(() => IsoTimestamp, { nullable: true, description: 'Last DNS check of the domain, when domain routing is on.' })
  dns_checked_at!: Date | null;
  @Field() enabled!: boolean;
  @Field(() => Int) priority!: number;
  @Field() catch_type!: string;
  @Field() match_type!: string;
  @Field(() => InboundFilterType) catch_filter!: InboundFilterType;
  @Field(() => InboundFilterType) match_filter!: InboundFilterType;
  @Field(() => [InboundFilterRowType], { description: 'catch_filter then match_filter, one row per rule.' })
  filters!: InboundFilterRowType[];
  @Field(() => [InboundForwardType]) forwards!: InboundForwardType[];
  @Field(() => InboundMxType) mxValues!: InboundMxType;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

function rows(f: StoredFilter): InboundFilterRowType[] {
  if (!f.filters.length) return [{ type: f.type, key: null, comparer: null, value: null }];
  return f.filters.map((r) => ({ type: f.type, key: r.key ?? null, comparer: r.comparer, value: r.value }));
}

const asType = (f: StoredFilter): InboundFilterType => ({
  type: f.type,
  filters: f.filters.map((r) => ({ comparer: r.comparer, value: r.value, key: r.key ?? null })),
});

/** The record; the domain must be loaded. `confirmations` is keyed by lower-cased address. */
export function toInbound(
  i: Inbound,
  config: { APP_SECRET: string; INBOUND_MX_HOST: string },
  confirmations: ReadonlyMap<string, Confirmation>,
): InboundType {
  const catchFilter = i.catch_filter as StoredFilter;
  const matchFilter = i.match_filter as StoredFilter;
  return {
    id: i.id,
    name: i.name,
    address: i.address,
    domain: toDomainRef(i.domain),
    domain_enabled: i.domain_enabled,
    inbound_domain: i.inbound_domain,
    dns_checked_at: i.domain_enabled ? i.domain.last_checked_at : null,
    enabled: i.enabled,
    priority: i.inbound_priority,
    catch_type: catchFilter.mode ?? 'all',
    match_type: matchFilter.mode ?? 'all',
    catch_filter: asType(catchFilter),
    match_filter: asType(matchFilter),
    filters: [...rows(catchFilter), ...rows(matchFilter)],
    forwards: i.forwards.map((f) => ({
      id: f.id,
      type: f.type,
      value: f.value,
      secret: f.type === 'webhook' && f.secret_enc ? decrypt(config.APP_SECRET, f.secret_enc) : null,
      confirmation: f.type === 'email' ? (confirmations.get(f.value.toLowerCase()) ?? 'pending') : null,
    })),
    mxValues: { priority: 10, target: config.INBOUND_MX_HOST },
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

@ObjectType({ description: 'One page of inbound routes with the full pager (GET /v1/inbound).' })
export class InboundPage {
  @Field(() => [InboundType]) data!: InboundType[];
  @Field(() => PageMeta) meta!: PageMeta;
}
