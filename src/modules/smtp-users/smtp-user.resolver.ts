import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateSmtpUserArgs, SmtpUserIdArgs, SmtpUserListArgs, UpdateSmtpUserArgs } from './smtp-user.inputs.js';
import { SmtpUserService } from './smtp-user.service.js';
import { CreatedSmtpUser, SmtpUser, toCreatedSmtpUser, toSmtpUser } from './smtp-user.type.js';

const svc = (ctx: Ctx) => new SmtpUserService(ctx.em, ctx.services);

@Resolver()
export class SmtpUserResolver {
  @Authorized('smtp_users_read')
  @Query(() => [SmtpUser], { description: 'The SMTP users of a domain, newest first.' })
  async smtp_users(@Context() ctx: Ctx, @Args() args: SmtpUserListArgs): Promise<SmtpUser[]> {
    return (await svc(ctx).list(caller(ctx), args)).map((u) => toSmtpUser(u, ctx.services.config));
  }

  @Authorized('smtp_users_read')
  @Query(() => SmtpUser)
  async smtp_user(@Context() ctx: Ctx, @Args() { domain_id, smtp_user_id }: SmtpUserIdArgs): Promise<SmtpUser> {
    return toSmtpUser(await svc(ctx).get(caller(ctx), domain_id, smtp_user_id), ctx.services.config);
  }

  @Authorized('smtp_users_full')
  @Mutation(() => CreatedSmtpUser, { description: 'The password is returned this once; only its hash is stored.' })
  async create_smtp_user(@Context() ctx: Ctx, @Args() args: CreateSmtpUserArgs): Promise<CreatedSmtpUser> {
    const { user, password } = await svc(ctx).create(caller(ctx), args);
    return toCreatedSmtpUser(user, password, ctx.services.config);
  }

  @Authorized('smtp_users_full')
  @Mutation(() => SmtpUser, { description: 'Rename, enable or disable.' })
  async update_smtp_user(@Context() ctx: Ctx, @Args() args: UpdateSmtpUserArgs): Promise<SmtpUser> {
    return toSmtpUser(await svc(ctx).update(caller(ctx), args), ctx.services.config);
  }

  @Authorized('smtp_users_full')
  @Mutation(() => Boolean)
  async delete_smtp_user(@Context() ctx: Ctx, @Args() { domain_id, smtp_user_id }: SmtpUserIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), domain_id, smtp_user_id);
  }
}
