import { Field, Int, ObjectType } from 'type-graphql';
import { JSONObject } from '../../graphql/scalars.js';

@ObjectType()
export class AnalyticsByDate {
  @Field(() => Int) date_from!: number;
  @Field(() => Int) date_to!: number;
  @Field({ description: 'days, weeks, months or years' }) group_by!: string;
  @Field(() => [JSONObject], {
    description: 'One item per unit of the range, oldest first, none left out: `date` (Unix timestamp of the unit start in `timezone`, UTC by default; weeks start on Monday) and an integer per queried event.',
  })
  stats!: Record<string, number>[];
}

@ObjectType()
export class AnalyticsNameCount {
  @Field() name!: string;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class AnalyticsByName {
  @Field(() => Int) date_from!: number;
  @Field(() => Int) date_to!: number;
  @Field(() => [AnalyticsNameCount], { description: 'Opens per value, most first; opens where it is not known are left out.' })
  stats!: AnalyticsNameCount[];
}
