import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A source address of IP_POOLS, its EHLO name beside its reverse DNS, and its warm-up.' })
export class SourceAddressType {
  @Field() address!: string;
  @Field({ description: 'The name given in EHLO from this address.' }) ehlo!: string;
  @Field(() => [String], { description: 'Its reverse DNS (PTR) names, as this process resolves them.' }) reverse_dns!: string[];
  @Field({ description: 'The EHLO name is one of its reverse DNS names; large providers refuse mail when it is not.' }) ehlo_matches!: boolean;
  @Field({ description: 'No warm-up cap: configured as warmed, or past IP_WARMUP_SCHEDULE.' }) warmed!: boolean;
  @Field(() => Int, { nullable: true, description: 'Day of its warm-up (1 = the day of its first send); null before its first send.' })
  warmup_day!: number | null;
  @Field(() => Int, { nullable: true, description: "Today's cap; null: none." }) daily_cap!: number | null;
  @Field(() => Int, { description: 'Sent today (UTC), counted while it warms up.' }) sent_today!: number;
}

@ObjectType({ description: 'A pool of source addresses (IP_POOLS).' })
export class IpPoolType {
  @Field() name!: string;
  @Field(() => [SourceAddressType]) addresses!: SourceAddressType[];
}

@ObjectType({ description: 'The pool an account, or one of its domains, sends from.' })
export class IpPoolAssignmentType {
  @Field(() => ID) account_id!: string;
  @Field(() => ID, { nullable: true }) domain_id!: string | null;
  @Field(() => String, { nullable: true, description: 'null: none of its own (a domain: its account\'s; an account: `default`).' })
  pool!: string | null;
}
