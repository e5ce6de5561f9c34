import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import {
  CreateIdentityArgs,
  IdentityEmailArgs,
  IdentityIdArgs,
  IdentityListArgs,
  UpdateIdentityArgs,
  UpdateIdentityByEmailArgs,
} from './identity.inputs.js';
import { IdentityService } from './identity.service.js';
import { SenderIdentityType, toSenderIdentity } from './identity.type.js';

const svc = (ctx: Ctx) => new IdentityService(ctx.em, ctx.services);

@Resolver()
export class IdentityResolver {
  @Authorized('sender_identity_read')
  @Query(() => [SenderIdentityType], { description: 'The account\'s sender identities, newest first unless ordered.' })
  async sender_identities(@Context() ctx: Ctx, @Args() args: IdentityListArgs): Promise<SenderIdentityType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(toSenderIdentity);
  }

  @Authorized('sender_identity_read')
  @Query(() => SenderIdentityType)
  async sender_identity(@Context() ctx: Ctx, @Args() { identity_id }: IdentityIdArgs): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).get(caller(ctx), { id: identity_id }));
  }

  @Authorized('sender_identity_read')
  @Query(() => SenderIdentityType, { description: 'Looks the address up without regard to case.' })
  async sender_identity_by_email(@Context() ctx: Ctx, @Args() { email }: IdentityEmailArgs): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).get(caller(ctx), { email }));
  }

  @Authorized('sender_identity_full')
  @Mutation(() => SenderIdentityType, { description: 'Sends a confirmation mail to the address.' })
  async create_sender_identity(@Context() ctx: Ctx, @Args() args: CreateIdentityArgs): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).create(caller(ctx), args));
  }

  @Authorized('sender_identity_full')
  @Mutation(() => SenderIdentityType)
  async update_sender_identity(@Context() ctx: Ctx, @Args() args: UpdateIdentityArgs): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).update(caller(ctx), { id: args.identity_id }, args));
  }

  @Authorized('sender_identity_full')
  @Mutation(() => SenderIdentityType)
  async update_sender_identity_by_email(
    @Context() ctx: Ctx,
    @Args() args: UpdateIdentityByEmailArgs,
  ): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).update(caller(ctx), { email: args.email }, args));
  }

  @Authorized('sender_identity_full')
  @Mutation(() => Boolean)
  async delete_sender_identity(@Context() ctx: Ctx, @Args() { identity_id }: IdentityIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), { id: identity_id });
  }

  @Authorized('sender_identity_full')
  @Mutation(() => Boolean)
  async delete_sender_identity_by_email(@Context() ctx: Ctx, @Args() { email }: IdentityEmailArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), { email });
  }

  @Authorized('sender_identity_full')
  @Mutation(() => SenderIdentityType, { description: 'Sends the confirmation mail again; refused once verified.' })
  async resend_sender_identity(@Context() ctx: Ctx, @Args() { identity_id }: IdentityIdArgs): Promise<SenderIdentityType> {
    return toSenderIdentity(await svc(ctx).resend(caller(ctx), { id: identity_id }));
  }
}
