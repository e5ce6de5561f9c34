import { ArgsType, Field, ID } from 'type-graphql';
import { ValidateIf, registerDecorator } from 'class-validator';
import { PageArgs } from '../../graphql/pagination.js';
import { Email, EachOneOf, MaxItems, MaxLen } from '../../graphql/validation.js';
import { CUSTOM_ROLE, PERMISSIONS, canonicalRole } from './roles.js';
import { msg } from '../../core/errors.js';

/** One of ROLES, in any letter case (see canonicalRole). */
function RoleName() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'roleName',
      target: object.constructor,
      propertyName,
      validator: { validate: (v: unknown) => canonicalRole(v) !== undefined, defaultMessage: (a) => msg.in(a!.property) },
    });
}

/** Permissions only count for a custom user; preset roles ignore whatever was sent. */
const onlyForCustom = ValidateIf((o: { role?: string }) => canonicalRole(o.role) === CUSTOM_ROLE);

@ArgsType()
export class UserListArgs extends PageArgs {}

@ArgsType()
export class InviteListArgs extends PageArgs {}

@ArgsType()
export class UserIdArgs {
  @Field(() => ID) user_id!: string;
}

@ArgsType()
export class InviteIdArgs {
  @Field(() => ID) invite_id!: string;
}

/** What a user may do and reach; shared by the invitation and the update. */
@ArgsType()
export class AccessArgs {
  @Field({ description: 'admin, manager, designer, accountant or Custom User' })
  @RoleName()
  role!: string;

  @Field(() => [String], { nullable: true, description: 'Permission names; required for a Custom User, ignored otherwise.' })
  @onlyForCustom
  @EachOneOf(PERMISSIONS)
  permissions?: string[] | null;

  // Ids are checked against the account in the service; the cap only bounds that lookup.
  @Field(() => [String], { nullable: true, description: 'Template ids the user is limited to.' })
  @MaxItems(1000)
  templates?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Domain ids the user is limited to; none means all domains.' })
  @MaxItems(1000)
  domains?: string[] | null;

  @Field(() => Boolean, { nullable: true })
  requires_periodic_password_change?: boolean | null;
}

@ArgsType()
export class InviteUserArgs extends AccessArgs {
  @Field() @MaxLen(320) @Email() email!: string;
}

@ArgsType()
export class UpdateUserArgs extends AccessArgs {
  @Field(() => ID) user_id!: string;
}
