import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { AccountType } from '../accounts/account.type.js';
import { CreatedToken } from '../tokens/token.type.js';

@ObjectType()
export class CreatedAccount {
  @Field(() => AccountType) account!: AccountType;
  @Field(() => CreatedToken, { description: 'The account\'s first full-scope token; shown once.' })
  token!: CreatedToken;
}

@ObjectType()
export class MaintenanceWindowType {
  @Field(() => ID) id!: string;
  @Field() note!: string;
  @Field(() => IsoTimestamp) started_at!: Date;
  @Field(() => IsoTimestamp, { nullable: true }) ended_at!: Date | null;
}

@ObjectType()
export class CapturedMailType {
  @Field(() => ID) id!: string;
  @Field() to!: string;
  @Field() from!: string;
  @Field() subject!: string;
  @Field() text!: string;
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field() kind!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}
