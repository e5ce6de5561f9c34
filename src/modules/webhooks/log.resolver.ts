import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { WebhookLogService } from './log.service.js';
import { toWebhookLogEntry } from './log.mapper.js';
import { ReplayWebhookArgs, WebhookDeliveryArgs, WebhookDeliveryDetail, WebhookLogArgs, WebhookLogPage, WebhookReplay } from './log.type.js';

const svc = (ctx: Ctx) => new WebhookLogService(ctx.em, ctx.services.config);

@Resolver()
export class WebhookLogResolver {
  @Authorized('webhooks_full')
  @Query(() => WebhookLogPage, { description: 'Every request sent to a webhook (deliveries and tests), newest first.' })
  async webhook_log(@Context() ctx: Ctx, @Args() args: WebhookLogArgs): Promise<WebhookLogPage> {
    const { rows, meta } = await svc(ctx).log(caller(ctx), args);
    return { data: rows.map(toWebhookLogEntry), meta };
  }

  @Authorized('webhooks_full')
  @Mutation(() => WebhookReplay, { description: 'Sends again the failed and given-up deliveries created between since and until.' })
  async replay_webhook(@Context() ctx: Ctx, @Args() args: ReplayWebhookArgs): Promise<WebhookReplay> {
    return { replayed: await svc(ctx).replay(caller(ctx), args) };
  }

  @Authorized('webhooks_full')
  @Query(() => WebhookDeliveryDetail, { description: 'One delivery of an email webhook, with the body its requests carry (GraphQL only).' })
  webhook_delivery(@Context() ctx: Ctx, @Args() { delivery_id }: WebhookDeliveryArgs): Promise<WebhookDeliveryDetail> {
    return svc(ctx).delivery(caller(ctx), delivery_id);
  }

  @Authorized('webhooks_full')
  @Mutation(() => WebhookDeliveryDetail, { description: 'Sends one failed or given-up delivery again, same id and body, from the start of the retry schedule (GraphQL only).' })
  retry_webhook_delivery(@Context() ctx: Ctx, @Args() { delivery_id }: WebhookDeliveryArgs): Promise<WebhookDeliveryDetail> {
    return svc(ctx).retry(caller(ctx), delivery_id);
  }
}
