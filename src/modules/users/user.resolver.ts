import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Auth, type Ctx } from '../../graphql/context.js';
import { InviteService } from './invite.service.js';
import type { AccountUser } from './user.entity.js';
import { InviteIdArgs, InviteListArgs, InviteUserArgs, UpdateUserArgs, UserIdArgs, UserListArgs } from './user.inputs.js';
import { UserService } from './user.service.js';
import { InvitePage, InviteType, UserType, toInvite, toUser } from './user.type.js';

const users = (ctx: Ctx) => new UserService(ctx.em);
const invites = (ctx: Ctx) => new InviteService(ctx.em, ctx.services);

async function mapUsers(ctx: Ctx, auth: Auth, rows: AccountUser[]): Promise<UserType[]> {
  const refs = await users(ctx).refsOf(auth, rows);
  return rows.map((u) => toUser(u, refs));
}

@Resolver()
export class UserResolver {
  @Authorized('users_read')
  @Query(() => [UserType], { description: 'The people with access to the account, oldest first.' })
  async users(@Context() ctx: Ctx, @Args() args: UserListArgs): Promise<UserType[]> {
    const auth = caller(ctx);
    return mapUsers(ctx, auth, await users(ctx).list(auth, args));
  }

  @Authorized('users_read')
  @Query(() => UserType)
  async user(@Context() ctx: Ctx, @Args() { user_id }: UserIdArgs): Promise<UserType> {
    const auth = caller(ctx);
    return (await mapUsers(ctx, auth, [await users(ctx).get(auth, user_id)]))[0];
  }

  @Authorized('users_full')
  @Mutation(() => UserType, { description: 'Changes what a user may do and reach.' })
  async update_user(@Context() ctx: Ctx, @Args() args: UpdateUserArgs): Promise<UserType> {
    const auth = caller(ctx);
    return (await mapUsers(ctx, auth, [await users(ctx).update(auth, args)]))[0];
  }

  @Authorized('users_full')
  @Mutation(() => Boolean, { description: 'Removes a user; the last admin of the account stays.' })
  async delete_user(@Context() ctx: Ctx, @Args() { user_id }: UserIdArgs): Promise<boolean> {
    return users(ctx).remove(caller(ctx), user_id);
  }

  @Authorized('users_read')
  @Query(() => [InviteType], { description: 'Invitations not yet accepted, oldest first.' })
  async invites(@Context() ctx: Ctx, @Args() args: InviteListArgs): Promise<InviteType[]> {
    return (await invites(ctx).list(caller(ctx), args)).map(toInvite);
  }

  @Authorized('users_read')
  @Query(() => InvitePage, { description: 'Invitations not yet accepted, oldest first, with the full pager (GET /v1/invites).' })
  async invites_page(@Context() ctx: Ctx, @Args() args: InviteListArgs): Promise<InvitePage> {
    const { rows, meta } = await invites(ctx).page(caller(ctx), args);
    return { data: rows.map(toInvite), meta };
  }

  @Authorized('users_read')
  @Query(() => InviteType)
  async invite(@Context() ctx: Ctx, @Args() { invite_id }: InviteIdArgs): Promise<InviteType> {
    return toInvite(await invites(ctx).get(caller(ctx), invite_id));
  }

  @Authorized('users_full')
  @Mutation(() => InviteType, { description: 'Invites a person by email; they join by opening the emailed link.' })
  async invite_user(@Context() ctx: Ctx, @Args() args: InviteUserArgs): Promise<InviteType> {
    return toInvite(await invites(ctx).create(caller(ctx), args));
  }

  @Authorized('users_full')
  @Mutation(() => InviteType, { description: 'Sends the invitation email again.' })
  async resend_invite(@Context() ctx: Ctx, @Args() { invite_id }: InviteIdArgs): Promise<InviteType> {
    return toInvite(await invites(ctx).resend(caller(ctx), invite_id));
  }

  @Authorized('users_full')
  @Mutation(() => Boolean)
  async delete_invite(@Context() ctx: Ctx, @Args() { invite_id }: InviteIdArgs): Promise<boolean> {
    return invites(ctx).remove(caller(ctx), invite_id);
  }
}
