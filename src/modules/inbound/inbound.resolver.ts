import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateInboundArgs, InboundIdArgs, InboundListArgs, UpdateInboundArgs } from './inbound.inputs.js';
import type { Inbound } from './inbound.entity.js';
import { InboundService } from './inbound.service.js';
import { InboundPage, InboundType, toInbound } from './inbound.type.js';

const svc = (ctx: Ctx) => new InboundService(ctx.em, ctx.services);

/** The records, with the confirmation state of their email forwards read in one go. */
async function records(ctx: Ctx, routes: Inbound[]): Promise<InboundType[]> {
  const confirmations = await svc(ctx).confirmations(caller(ctx), routes);
  return routes.map((i) => toInbound(i, ctx.services.config, confirmations));
}

@Resolver()
export class InboundResolver {
  @Authorized('inbounds_full')
  @Query(() => [InboundType], { description: 'The account\'s inbound routes, newest first; optionally of one domain.' })
  async inbounds(@Context() ctx: Ctx, @Args() args: InboundListArgs): Promise<InboundType[]> {
    return records(ctx, await svc(ctx).list(caller(ctx), args));
  }

  @Authorized('inbounds_full')
  @Query(() => InboundPage, { description: 'The account\'s inbound routes, newest first, with the full pager (GET /v1/inbound).' })
  async inbounds_page(@Context() ctx: Ctx, @Args() args: InboundListArgs): Promise<InboundPage> {
    const { rows, meta } = await svc(ctx).page(caller(ctx), args);
    return { data: await records(ctx, rows), meta };
  }

  @Authorized('inbounds_full')
  @Query(() => InboundType)
  async inbound(@Context() ctx: Ctx, @Args() { inbound_id }: InboundIdArgs): Promise<InboundType> {
    return (await records(ctx, [await svc(ctx).get(caller(ctx), inbound_id)]))[0];
  }

  @Authorized('inbounds_full')
  @Mutation(() => InboundType, { description: 'The route gets its own address; each webhook forward its own signing secret.' })
  async create_inbound(@Context() ctx: Ctx, @Args() args: CreateInboundArgs): Promise<InboundType> {
    return (await records(ctx, [await svc(ctx).create(caller(ctx), args)]))[0];
  }

  @Authorized('inbounds_full')
  @Mutation(() => InboundType, { description: 'Only the fields sent change; forwards sent again unchanged keep their id and secret.' })
  async update_inbound(@Context() ctx: Ctx, @Args() args: UpdateInboundArgs): Promise<InboundType> {
    return (await records(ctx, [await svc(ctx).update(caller(ctx), args)]))[0];
  }

  @Authorized('inbounds_full')
  @Mutation(() => Boolean)
  async delete_inbound(@Context() ctx: Ctx, @Args() { inbound_id }: InboundIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), inbound_id);
  }
}
