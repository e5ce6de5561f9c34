import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One source address of IP_POOLS as delivery has used it, shared by every worker: the UTC day its
 * warm-up began (its first send) and how much it sent on the day it last sent
 * (ip-pool.repository.ts warmUpPermit). Written on an address's first send.
 */
@Entity({ tableName: 'delivery_sources' })
export class SourceAddressRow {
  @PrimaryKey({ type: 'string', length: 64 })
  address!: string;

  @Property({ type: 'date' })
  warmup_started!: string;

  @Property({ type: 'date' })
  day!: string;

  @Property({ type: 'integer' })
  sent!: number;
}
