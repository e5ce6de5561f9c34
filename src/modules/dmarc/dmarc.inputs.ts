import { ArgsType, Field, ID, Int } from 'type-graphql';
import { MaxInt, MaxLen, MinInt, OneOf } from '../../graphql/validation.js';

export const DMARC_SORTS = ['created_at', 'updated_at', 'dmarc_valid', 'spf_status'] as const;
export const ORDERS = ['asc', 'desc'] as const;

/** Monitor lists take limit 1..100 (SPEC.md Limits), not the common 10..100. */
@ArgsType()
export class DmarcListArgs {
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) @MinInt(1) @MaxInt(100) limit: number = 25;
  @Field(() => String, { nullable: true, description: 'Searches the domain name.' }) @MaxLen(255) query?: string | null;
  @Field(() => String, { nullable: true, description: 'created_at, updated_at, dmarc_valid or spf_status' })
  @OneOf(DMARC_SORTS)
  sort_by?: string | null;
  @Field(() => String, { nullable: true, description: 'asc or desc' }) @OneOf(ORDERS) order?: string | null;
}

@ArgsType()
export class DmarcMonitorIdArgs {
  @Field(() => ID) monitor_id!: string;
}

@ArgsType()
export class CreateDmarcMonitorArgs {
  @Field(() => ID, { description: 'A verified sending domain of the account without a monitor yet.' })
  domain_id!: string;
}

@ArgsType()
export class UpdateDmarcMonitorArgs {
  @Field(() => ID) monitor_id!: string;
  @Field({ description: 'A DMARC record (RFC 7489), e.g. "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com".' })
  @MaxLen(1000)
  wanted_dmarc_record!: string;
}
