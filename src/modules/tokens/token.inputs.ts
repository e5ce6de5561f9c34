import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachOneOf, MaxLen, OneOf } from '../../graphql/validation.js';
import { SCOPES } from '../../core/scopes.js';

export const TOKEN_STATUSES = ['pause', 'unpause'] as const;

@ArgsType()
export class TokenListArgs extends PageArgs {}

@ArgsType()
export class TokenIdArgs {
  @Field(() => ID) token_id!: string;
}

@ArgsType()
export class CreateTokenArgs {
  @Field() @MaxLen(50) name!: string;
  @Field(() => [String]) @EachOneOf(SCOPES) scopes!: string[];
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

@ArgsType()
export class UpdateTokenArgs {
  @Field(() => ID) token_id!: string;
  @Field(() => String, { nullable: true }) @MaxLen(50) name?: string | null;
  @Field(() => String, { nullable: true, description: 'pause or unpause' }) @OneOf(TOKEN_STATUSES) status?: string | null;
}

@ArgsType()
export class TokenSettingsArgs {
  @Field(() => ID) token_id!: string;
  @Field({ description: 'pause or unpause' }) @OneOf(TOKEN_STATUSES) status!: string;
}
