import { ArgsType, Field, ID, Int } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachEmail, EachMaxLen, MaxInt, MaxItems, MinInt } from '../../graphql/validation.js';

export const MAX_ITEMS = 1000;

@ArgsType()
export class SuppressionListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

/** The blocklist pages by 10 by default, unlike the other lists (SPEC.md Limits). */
@ArgsType()
export class BlocklistListArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;

  @Field(() => Int, { defaultValue: 1 })
  @MinInt(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: 10 })
  @MinInt(10)
  @MaxInt(100)
  limit: number = 10;
}

@ArgsType()
export class AddBlocklistArgs {
  @Field(() => ID, { nullable: true, description: 'Absent: the entries apply to the whole account.' })
  domain_id?: string | null;

  @Field(() => [String], { nullable: true, description: 'Exact addresses.' })
  @MaxItems(MAX_ITEMS)
  @EachMaxLen(191)
  @EachEmail()
  recipients?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Regular expressions (RE2 syntax: no backreferences or lookaround) matched case-insensitively anywhere in the address.' })
  @MaxItems(MAX_ITEMS)
  patterns?: string[] | null;
}

@ArgsType()
export class AddSuppressionArgs {
  @Field(() => ID) domain_id!: string;

  @Field(() => [String])
  @MaxItems(MAX_ITEMS)
  @EachMaxLen(191)
  @EachEmail()
  recipients!: string[];
}

@ArgsType()
export class AddOnHoldArgs extends AddSuppressionArgs {
  @Field(() => String, { nullable: true, description: 'ISO 8601, in the future; default now + 30 days.' })
  on_hold_until?: string | null;
}

@ArgsType()
export class DeleteBlocklistArgs {
  @Field(() => ID, { nullable: true, description: 'Absent: the account-wide entries.' })
  domain_id?: string | null;

  @Field(() => [ID], { nullable: true }) @MaxItems(MAX_ITEMS) ids?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'Remove every entry of the list for the domain.' })
  all?: boolean | null;
}

@ArgsType()
export class DeleteSuppressionArgs {
  @Field(() => ID) domain_id!: string;

  @Field(() => [ID], { nullable: true }) @MaxItems(MAX_ITEMS) ids?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'Remove every entry of the list for the domain.' })
  all?: boolean | null;
}
