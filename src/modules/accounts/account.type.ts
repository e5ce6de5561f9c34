import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { Account } from './account.entity.js';

@ObjectType()
export class AccountType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'free, starter, professional or enterprise' }) plan!: string;
  @Field(() => Int) verification_credits!: number;
  @Field(() => IsoTimestamp) created_at!: Date;
}

export function toAccount(a: Account): AccountType {
  return { id: a.id, name: a.name, plan: a.plan, verification_credits: a.verification_credits, created_at: a.created_at };
}
