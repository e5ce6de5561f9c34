import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { PageMeta as PageMetaShape, PageQuery } from '../core/page.js';
import { MaxInt, MinInt } from './validation.js';

/** `page` and `limit` for most lists: limit 10 to 100, default 25 (SPEC.md Limits). */
@ArgsType()
export class PageArgs implements PageQuery {
  @Field(() => Int, { defaultValue: 1 })
  @MinInt(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: 25 })
  @MinInt(10)
  @MaxInt(100)
  limit: number = 25;
}

/**
 * The full pager's meta as a GraphQL type; services fill it with `pageMeta` (core/page.ts).
 * `path` is left out: /v1 adds it from the request URL.
 */
@ObjectType()
export class PageMeta implements PageMetaShape {
  @Field(() => Int) current_page!: number;
  @Field(() => Int, { nullable: true }) from!: number | null;
  @Field(() => Int) last_page!: number;
  @Field(() => Int) per_page!: number;
  @Field(() => Int, { nullable: true }) to!: number | null;
  @Field(() => Int) total!: number;
}
