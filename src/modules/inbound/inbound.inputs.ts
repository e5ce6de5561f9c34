import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { MaxInt, MaxLen, MinInt } from '../../graphql/validation.js';

export const CATCH_TYPES = ['catch_all', 'catch_recipient'] as const;
export const MATCH_TYPES = ['match_all', 'match_sender', 'match_domain', 'match_header'] as const;
/** Whether every filter of a list must hold (`all`, the default) or one is enough (`one`). */
export const FILTER_MODES = ['all', 'one'] as const;
export const FORWARD_TYPES = ['email', 'webhook'] as const;

export const INBOUND_LIMITS = {
  name: 191,
  /** Filters per catch or match list. */
  filters: 5,
  filterValue: 191,
  headerKey: 191,
  forwards: 10,
  forwardValue: 191,
  priority: 100,
} as const;

@InputType('InboundCatchRuleInput')
export class CatchRuleInput {
  @Field({ description: 'equal, not-equal, contains, not-contains, starts-with, ends-with, not-starts-with, not-ends-with' })
  comparer!: string;

  @Field({ description: 'Compared with the recipient\'s local part, or with the whole address when it holds an @.' })
  value!: string;
}

@InputType('InboundMatchRuleInput')
export class MatchRuleInput {
  @Field({ description: 'As in catch filters.' })
  comparer!: string;

  @Field()
  value!: string;

  @Field(() => String, { nullable: true, description: 'match_header only: the header name.' })
  key?: string | null;
}

@InputType('InboundCatchFilterInput')
export class CatchFilterInput {
  @Field({ description: 'catch_all or catch_recipient' })
  type!: string;

  @Field(() => [CatchRuleInput], { nullable: true, description: 'Required (1 to 5) for catch_recipient.' })
  filters?: CatchRuleInput[] | null;
}

@InputType('InboundMatchFilterInput')
export class MatchFilterInput {
  @Field({ description: 'match_all, match_sender, match_domain or match_header' })
  type!: string;

  @Field(() => [MatchRuleInput], { nullable: true, description: 'Required (1 to 5) unless match_all.' })
  filters?: MatchRuleInput[] | null;
}

@InputType('InboundForwardInput')
export class ForwardInput {
  @Field({ description: 'email or webhook' })
  type!: string;

  @Field({ description: 'An email address, or an http(s) URL that receives the signed JSON message.' })
  value!: string;
}

@ArgsType()
export class InboundListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

@ArgsType()
export class InboundIdArgs {
  @Field(() => ID) inbound_id!: string;
}

/** Fields shared by create and update; on update every one is optional and only those sent change. */
@ArgsType()
export class InboundFieldsArgs {
  @Field(() => Boolean, { nullable: true, description: 'Route mail for inbound_domain too (its MX pointing at this service).' })
  domain_enabled?: boolean | null;

  @Field(() => String, { nullable: true, description: 'A subdomain of the route\'s domain; required when domain_enabled is true.' })
  inbound_domain?: string | null;

  @Field(() => Int, { nullable: true, description: '0 to 100; among routes for the same recipient the highest goes first.' })
  @MinInt(0)
  @MaxInt(INBOUND_LIMITS.priority)
  inbound_priority?: number | null;

  @Field(() => String, { nullable: true, description: 'all (default) or one: how many catch filters must hold.' })
  catch_type?: string | null;

  @Field(() => String, { nullable: true, description: 'all (default) or one: how many match filters must hold.' })
  match_type?: string | null;

  @Field(() => CatchFilterInput, { nullable: true, description: 'Which recipients of inbound_domain are taken (default catch_all).' })
  catch_filter?: CatchFilterInput | null;

  @Field(() => MatchFilterInput, { nullable: true, description: 'Which senders or headers are taken (default match_all).' })
  match_filter?: MatchFilterInput | null;

  @Field(() => [ForwardInput], { nullable: true, description: 'Up to 10 destinations.' })
  forwards?: ForwardInput[] | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true; a disabled route receives nothing.' })
  enabled?: boolean | null;
}

@ArgsType()
export class CreateInboundArgs extends InboundFieldsArgs {
  @Field(() => ID) domain_id!: string;

  @Field() @MaxLen(INBOUND_LIMITS.name) name!: string;
}

@ArgsType()
export class UpdateInboundArgs extends InboundFieldsArgs {
  @Field(() => ID) inbound_id!: string;

  @Field(() => String, { nullable: true }) @MaxLen(INBOUND_LIMITS.name) name?: string | null;
}
