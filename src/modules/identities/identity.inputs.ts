import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { Email, MaxLen, OneOf } from '../../graphql/validation.js';

export const IDENTITY_ORDER_BY = ['email', 'created_at', 'verified_at'] as const;
export type IdentityOrderBy = (typeof IDENTITY_ORDER_BY)[number];
export const ORDERS = ['asc', 'desc'] as const;

@ArgsType()
export class IdentityListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
  @Field(() => String, { nullable: true, description: 'Part of the email address, any case.' }) query?: string | null;
  @Field(() => String, { nullable: true, description: 'email, created_at (default) or verified_at' })
  @OneOf(IDENTITY_ORDER_BY)
  order_by?: string | null;
  @Field(() => String, { nullable: true, description: 'asc or desc (default)' }) @OneOf(ORDERS) order?: string | null;
}

@ArgsType()
export class IdentityIdArgs {
  @Field(() => ID) identity_id!: string;
}

@ArgsType()
export class IdentityEmailArgs {
  @Field() email!: string;
}

/** The fields an update may change; create takes the same ones plus domain_id and email. */
@ArgsType()
export class IdentityChangeArgs {
  @Field(() => String, { nullable: true, description: 'Defaults to the part of the email before @.' })
  @MaxLen(191)
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Required when reply_to_name is set.' })
  @MaxLen(320)
  @Email()
  reply_to_email?: string | null;

  @Field(() => String, { nullable: true }) @MaxLen(191) reply_to_name?: string | null;
  @Field(() => Boolean, { nullable: true }) add_note?: boolean | null;
  @Field(() => String, { nullable: true }) @MaxLen(250) personal_note?: string | null;
}

@ArgsType()
export class CreateIdentityArgs extends IdentityChangeArgs {
  @Field(() => ID) domain_id!: string;
  @Field() @MaxLen(320) @Email() email!: string;
}

@ArgsType()
export class UpdateIdentityArgs extends IdentityChangeArgs {
  @Field(() => ID) identity_id!: string;
}

@ArgsType()
export class UpdateIdentityByEmailArgs extends IdentityChangeArgs {
  @Field({ description: 'The current address of the identity to change.' }) email!: string;
}
