import { ArgsType, Field, ID, Int } from 'type-graphql';
import { EachOneOf, MaxInt, MinInt } from '../../graphql/validation.js';
import { ACTIVITY_TYPES } from './activity.entity.js';

@ArgsType()
export class ActivityListArgs {
  @Field(() => ID) domain_id!: string;

  @Field(() => Int, { defaultValue: 1 })
  @MinInt(1)
  @MaxInt(1000)
  page: number = 1;

  @Field(() => Int, { defaultValue: 25 })
  @MinInt(10)
  @MaxInt(100)
  limit: number = 25;

  @Field({ description: 'UTC: a Unix timestamp, or YYYY-MM-DD HH:MM:SS. Before date_to.' })
  date_from!: string;

  @Field({ description: 'UTC: a Unix timestamp, or YYYY-MM-DD HH:MM:SS. After date_from; inclusive.' })
  date_to!: string;

  @Field(() => [String], { nullable: true, description: 'Only these types (`event[]`). deferred and suppressed need the Starter plan or above.' })
  @EachOneOf(ACTIVITY_TYPES)
  event?: string[] | null;
}

@ArgsType()
export class ActivityIdArgs {
  @Field(() => ID) activity_id!: string;
}
