import { ArgsType, Field, ID, Int } from 'type-graphql';
import { Email, MaxInt, MaxLen, MinInt, OneOf } from '../../graphql/validation.js';

export const MONITOR_SORTS = ['name', 'address', 'created_at', 'updated_at', 'blocklisted'] as const;
export const ORDERS = ['asc', 'desc'] as const;

/** Monitor lists take limit 1..100 (SPEC.md Limits), not the common 10..100. */
@ArgsType()
export class MonitorListArgs {
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) @MinInt(1) @MaxInt(100) limit: number = 25;
  @Field(() => String, { nullable: true, description: 'Searches name and address.' }) @MaxLen(255) query?: string | null;
  @Field(() => String, { nullable: true, description: 'name, address, created_at, updated_at or blocklisted' })
  @OneOf(MONITOR_SORTS)
  sort_by?: string | null;
  @Field(() => String, { nullable: true, description: 'asc or desc' }) @OneOf(ORDERS) order?: string | null;
}

@ArgsType()
export class MonitorIdArgs {
  @Field(() => ID) monitor_id!: string;
}

@ArgsType()
export class CreateMonitorArgs {
  @Field({ description: 'A verified sending domain, an IP address, or a CIDR block (IPv4 /24–/32, IPv6 /120–/128).' })
  @MaxLen(255)
  address!: string;
  @Field(() => String, { nullable: true, description: 'Defaults to the address.' }) @MaxLen(255) name?: string | null;
  @Field(() => Boolean, { nullable: true }) notify?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Required when notify is true and notify_address is absent.' })
  @MaxLen(255)
  @Email()
  notify_email?: string | null;
  @Field(() => String, { nullable: true, description: 'A URL; required when notify is true and notify_email is absent.' })
  @MaxLen(500)
  notify_address?: string | null;
}

@ArgsType()
export class UpdateMonitorArgs {
  @Field(() => ID) monitor_id!: string;
  @Field(() => String, { nullable: true }) @MaxLen(255) name?: string | null;
  @Field(() => Boolean, { nullable: true }) notify?: boolean | null;
  @Field(() => String, { nullable: true }) @MaxLen(255) @Email() notify_email?: string | null;
  @Field(() => String, { nullable: true }) @MaxLen(500) notify_address?: string | null;
}
