import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateInboundArgs, InboundIdArgs, InboundListArgs, UpdateInboundArgs } from './inbound.inputs.js';
import { InboundService } from './inbound.service.js';
import { InboundType, toInbound } from './inbound.type.js';

const svc = (ctx: Ctx) => new InboundService(ctx.em, ctx.services);

@Resolver()
export class InboundResolver {
  @Authorized('inbounds_full')
  @Query(() => [InboundType], { description: 'The account\'s inbound routes, newest first; optionally of one domain.' })
  async inbounds(@Context() ctx: Ctx, @Args() args: InboundListArgs): Promise<InboundType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map((i) => toInbound(i, ctx.services.config));
  }

  @Authorized('inbounds_full')
  @Query(() => InboundType)
  async inbound(@Context() ctx: Ctx, @Args() { inbound_id }: InboundIdArgs): Promise<InboundType> {
    return toInbound(await svc(ctx).get(caller(ctx), inbound_id), ctx.services.config);
  }

  @Authorized('inbounds_full')
  @Mutation(() => InboundType, { description: 'The route gets its own address; each webhook forward its own signing secret.' })
  async create_inbound(@Context() ctx: Ctx, @Args() args: CreateInboundArgs): Promise<InboundType> {
    return toInbound(await svc(ctx).create(caller(ctx), args), ctx.services.config);
  }

  @Authorized('inbounds_full')
  @Mutation(() => InboundType, { description: 'Only the fields sent change; forwards sent again unchanged keep their id and secret.' })
  async update_inbound(@Context() ctx: Ctx, @Args() args: UpdateInboundArgs): Promise<InboundType> {
    return toInbound(await svc(ctx).update(caller(ctx), args), ctx.services.config);
  }

  @Authorized('inbounds_full')
  @Mutation(() => Boolean)
  async delete_inbound(@Context() ctx: Ctx, @Args() { inbound_id }: InboundIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), inbound_id);
  }
}
