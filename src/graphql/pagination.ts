import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { MaxInt, MinInt } from './validation.js';

/** `page` and `limit` for most lists: limit 10 to 100, default 25 (SPEC.md Limits). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1 })
  @MinInt(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: 25 })
  @MinInt(10)
  @MaxInt(100)
  limit: number = 25;
}

/** The full pager's meta, less `path`, which /v1 adds from the request URL. */
@ObjectType()
export class PageMeta {
  @Field(() => Int) current_page!: number;
  @Field(() => Int, { nullable: true }) from!: number | null;
  @Field(() => Int) last_page!: number;
  @Field(() => Int) per_page!: number;
  @Field(() => Int, { nullable: true }) to!: number | null;
  @Field(() => Int) total!: number;
}

export function offsetOf(args: { page: number; limit: number }): number {
  return (args.page - 1) * args.limit;
}

export function pageMeta(args: { page: number; limit: number }, count: number, total: number): PageMeta {
  const from = count ? offsetOf(args) + 1 : null;
  return {
    current_page: args.page,
    from,
    last_page: Math.max(1, Math.ceil(total / args.limit)),
    per_page: args.limit,
    to: from === null ? null : from + count - 1,
    total,
  };
}
