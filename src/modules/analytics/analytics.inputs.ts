import { ArgsType, Field, ID, Int } from 'type-graphql';
import { EachMaxLen, EachOneOf, MaxItems, MaxLen, OneOf } from '../../graphql/validation.js';
import { ACTIVITY_TYPES } from '../activity/activity.entity.js';

/** SPEC.md "Analytics": every activity type but suppressed. */
export const ANALYTICS_EVENTS = ACTIVITY_TYPES.filter((t) => t !== 'suppressed');
export const GROUP_BY = ['days', 'weeks', 'months', 'years'] as const;

@ArgsType()
export class AnalyticsArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;

  @Field(() => [String], { nullable: true, description: 'Accepted but not applied yet (as SPEC.md documents it).' })
  @MaxItems(50)
  recipient_id?: string[] | null;

  @Field(() => Int, { description: 'Unix timestamp (UTC), within the last 6 months; before date_to.' })
  date_from!: number;

  @Field(() => Int, { description: 'Unix timestamp (UTC), after date_from. Counts are daily: a partly covered day counts whole.' })
  date_to!: number;

  @Field(() => [String], { nullable: true, description: 'Emails with any of these tags; each counted once.' })
  @EachMaxLen(191)
  tags?: string[] | null;
}

@ArgsType()
export class AnalyticsDateArgs extends AnalyticsArgs {
  @Field(() => String, { defaultValue: 'days', description: 'days, weeks, months or years' })
  @OneOf(GROUP_BY)
  group_by: string = 'days';

  @Field(() => String, {
    nullable: true,
    defaultValue: 'UTC',
    description: 'IANA time zone (e.g. America/New_York) whose days, weeks, months and years the counts are grouped by; `date` is the unit start in it.',
  })
  @MaxLen(64)
  timezone?: string | null = 'UTC';

  @Field(() => [String], { description: 'The events to count (`event[]`).' })
  @EachOneOf(ANALYTICS_EVENTS)
  event!: string[];
}
