import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { CreatedToken } from '../tokens/token.type.js';
import type { Account } from './account.entity.js';

@ObjectType()
export class AccountType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'free, starter, professional or enterprise' }) plan!: string;
  @Field(() => Int) verification_credits!: number;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class CreatedAccount {
  @Field(() => AccountType) account!: AccountType;
  @Field(() => CreatedToken, { description: 'The account\'s first full-scope token; shown once.' })
  token!: CreatedToken;
}

export function toAccount(a: Account): AccountType {
  return { id: a.id, name: a.name, plan: a.plan, verification_credits: a.verification_credits, created_at: a.created_at };
}
