import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateSmsInboundArgs, SimulateSmsInboundArgs, SmsInboundIdArgs, SmsInboundListArgs, UpdateSmsInboundArgs } from './sms-inbound.inputs.js';
import { SmsInboundService, type RouteWithTarget } from './sms-inbound.service.js';
import { SimulatedSmsInboundType, SmsInboundType, toSmsInbound } from './sms-inbound.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new SmsInboundService(ctx.em, ctx.services);
const map = (ctx: Ctx, withNumber = false) => (r: RouteWithTarget) =>
  toSmsInbound(r.route, r.webhook, ctx.services.config.APP_SECRET, withNumber);

@Resolver()
export class SmsInboundResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsInboundType], { description: 'The account\'s SMS inbound routes, newest first.' })
  async sms_inbounds(@Context() ctx: Ctx, @Args() args: SmsInboundListArgs): Promise<SmsInboundType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(map(ctx));
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsInboundType, { description: 'One route, with its SMS number.' })
  async sms_inbound(@Context() ctx: Ctx, @Args() { sms_inbound_id }: SmsInboundIdArgs): Promise<SmsInboundType> {
    return map(ctx, true)(await svc(ctx).get(caller(ctx), sms_inbound_id));
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsInboundType, { description: 'The route gets its own signing secret.' })
  async create_sms_inbound(@Context() ctx: Ctx, @Args() args: CreateSmsInboundArgs): Promise<SmsInboundType> {
    return map(ctx)(await svc(ctx).create(caller(ctx), args));
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsInboundType, { description: 'Only the fields sent change; filter: null removes the filter.' })
  async update_sms_inbound(@Context() ctx: Ctx, @Args() args: UpdateSmsInboundArgs): Promise<SmsInboundType> {
    return map(ctx)(await svc(ctx).update(caller(ctx), args));
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => Boolean)
  async delete_sms_inbound(@Context() ctx: Ctx, @Args() { sms_inbound_id }: SmsInboundIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), sms_inbound_id);
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SimulatedSmsInboundType, {
    description: 'In the SMS sandbox (SMS_PROVIDER=capture) only: a text arrives at one of the account\'s numbers as if `from` sent it, and its routes forward it.',
  })
  async simulate_sms_inbound(@Context() ctx: Ctx, @Args() args: SimulateSmsInboundArgs): Promise<SimulatedSmsInboundType> {
    const received = await svc(ctx).simulate(caller(ctx), args);
    return { id: received.id!, forwarded_to: received.forwarded };
  }
}
