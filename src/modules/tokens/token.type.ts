import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp, PlainTimestamp } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { ApiToken } from './token.entity.js';
import { SCOPES } from '../../core/scopes.js';
import { PageMeta } from '../../graphql/pagination.js';

@ObjectType({ description: 'An API token. The secret is never readable after creation.' })
export class Token {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'pause or unpause' }) status!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => [String]) scopes!: string[];
  @Field(() => ID, { nullable: true, description: 'The one domain the token is limited to; null for the whole account (GraphQL only).' })
  domain_id!: string | null;
}

@ObjectType({ description: 'One page of tokens with the full pager (GET /v1/token).' })
export class TokenPage {
  @Field(() => [Token]) data!: Token[];
  @Field(() => PageMeta) meta!: PageMeta;
}

@ObjectType({ description: 'The creation response: the only time the secret is shown.' })
export class CreatedToken {
  @Field(() => ID) id!: string;
  @Field() accessToken!: string;
  @Field() name!: string;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => [String]) scopes!: string[];
  @Field() has_full!: boolean;
  @Field(() => DomainRef, { nullable: true }) domain!: DomainRef | null;
}

@ObjectType({ description: 'The caller: which account and token, with what reach.' })
export class Whoami {
  @Field(() => ID) account_id!: string;
  @Field(() => ID) token_id!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => ID, { nullable: true, description: 'Set when the caller is limited to exactly one domain.' })
  domain_id!: string | null;
  @Field(() => [ID], {
    nullable: true,
    description: 'Every domain the caller is limited to: a domain-limited token\'s one, a console user\'s one or several; null for the whole account.',
  })
  domain_ids!: string[] | null;
}

@ObjectType()
export class TokenEvent {
  @Field({ description: 'created, updated or deleted' }) action!: string;
  @Field(() => Token) token!: Token;
}

export function toCreatedToken(t: ApiToken, secret: string): CreatedToken {
  return {
    id: t.id,
    accessToken: secret,
    name: t.name,
    created_at: t.created_at,
    scopes: t.scopes,
    has_full: SCOPES.every((s) => t.scopes.includes(s)),
    domain: t.domain ? toDomainRef(t.domain) : null,
  };
}
