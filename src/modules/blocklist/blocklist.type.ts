import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { decrypt } from '../../lib/secrets.js';
import type { BlocklistHit, BlocklistMonitor } from './blocklist.entity.js';

@ObjectType('BlocklistMonitorForward')
export class MonitorForwardType {
  @Field(() => ID) id!: string;
  @Field({ description: 'email or webhook' }) type!: string;
  @Field() value!: string;
  @Field(() => String, { nullable: true, description: 'Webhook forwards: the signing secret of their requests.' })
  secret!: string | null;
}

@ObjectType('BlocklistHit', { description: 'One blocklist that listed the address; open while delisted_at is null.' })
export class BlocklistHitType {
  @Field() blocklist_host!: string;
  @Field() address!: string;
  @Field(() => IsoTimestamp) listed_at!: Date;
  @Field(() => IsoTimestamp, { nullable: true }) delisted_at!: Date | null;
  @Field(() => IsoTimestamp) last_checked_at!: Date;
}

@ObjectType('BlocklistMonitor', { description: 'A domain, IP or IP range checked against DNS blocklists.' })
export class BlocklistMonitorType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'The domain, the IP, or for a range its first IP.' }) address!: string;
  @Field({ description: 'domain or ip' }) type!: string;
  @Field() in_progress!: boolean;
  @Field() notify!: boolean;
  @Field() blocklisted!: boolean;
  @Field(() => Int, { description: 'How many blocklists the last check asked.' }) last_checks_count!: number;
  @Field(() => IsoTimestamp, { nullable: true }) last_check!: Date | null;
  @Field(() => IsoTimestamp, { nullable: true }) next_check!: Date | null;
  @Field() has_children!: boolean;
  @Field(() => Int, { nullable: true, description: 'Only when has_children is true.' }) children_count!: number | null;
  @Field(() => [MonitorForwardType]) forwards!: MonitorForwardType[];
  @Field(() => [BlocklistHitType], { nullable: true, description: 'Single monitor without children only.' })
  hits!: BlocklistHitType[] | null;
  @Field(() => [BlocklistMonitorType], { nullable: true, description: 'Single monitor of a range only.' })
  children!: BlocklistMonitorType[] | null;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

export function toHit(h: BlocklistHit): BlocklistHitType {
  return {
    blocklist_host: h.blocklist_host,
    address: h.address,
    listed_at: h.listed_at,
    delisted_at: h.delisted_at,
    last_checked_at: h.last_checked_at,
  };
}

/**
 * The record. `owner` is the monitor whose settings apply: the parent for a child of a range,
 * so a child shows the forwards and notify of the range it belongs to.
 */
export function toMonitor(
  m: BlocklistMonitor,
  appSecret: string,
  extra: { owner?: BlocklistMonitor; hits?: BlocklistHit[]; children?: BlocklistMonitor[] } = {},
): BlocklistMonitorType {
  const owner = extra.owner ?? m;
  const hasChildren = m.cidr !== null;
  return {
    id: m.id,
    name: m.name,
    address: m.address,
    type: m.type,
    in_progress: m.in_progress,
    notify: owner.notify,
    blocklisted: m.blocklisted,
    last_checks_count: m.last_checks_count,
    last_check: m.last_check,
    next_check: m.next_check,
    has_children: hasChildren,
    children_count: hasChildren ? m.children_count : null,
    forwards: owner.forwards.map((f) => ({
      id: f.id,
      type: f.type,
      value: f.value,
      secret: f.secret_enc ? decrypt(appSecret, f.secret_enc) : null,
    })),
    hits: extra.hits ? extra.hits.map(toHit) : null,
    children: extra.children ? extra.children.map((c) => toMonitor(c, appSecret, { owner: m })) : null,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}
