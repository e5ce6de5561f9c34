import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateWebhookArgs, UpdateWebhookArgs, WebhookIdArgs, WebhookListArgs } from './webhook.inputs.js';
import { WebhookService } from './webhook.service.js';
import { WebhookPage, WebhookType, toWebhook } from './webhook.type.js';

const svc = (ctx: Ctx) => new WebhookService(ctx.em, ctx.services);

@Resolver()
export class WebhookResolver {
  @Authorized('webhooks_full')
  @Query(() => WebhookPage, { description: 'The email webhooks of one domain, newest first.' })
  async webhooks(@Context() ctx: Ctx, @Args() args: WebhookListArgs): Promise<WebhookPage> {
    const { rows, meta } = await svc(ctx).list(caller(ctx), args);
    return { data: rows.map((w) => toWebhook(w, ctx.services.config.APP_SECRET)), meta };
  }

  @Authorized('webhooks_full')
  @Query(() => WebhookType)
  async webhook(@Context() ctx: Ctx, @Args() { webhook_id }: WebhookIdArgs): Promise<WebhookType> {
    return toWebhook(await svc(ctx).get(caller(ctx), webhook_id), ctx.services.config.APP_SECRET);
  }

  @Authorized('webhooks_full')
  @Mutation(() => WebhookType, { description: 'Sends the signed webhook.test request first; a non-2xx answer is a 422 on url.' })
  async create_webhook(@Context() ctx: Ctx, @Args() args: CreateWebhookArgs): Promise<WebhookType> {
    return toWebhook(await svc(ctx).create(caller(ctx), args), ctx.services.config.APP_SECRET);
  }

  @Authorized('webhooks_full')
  @Mutation(() => WebhookType, {
    description: 'A new url, or enabled turned on, sends the webhook.test request first. enabled=true also lifts an automatic pause.',
  })
  async update_webhook(@Context() ctx: Ctx, @Args() args: UpdateWebhookArgs): Promise<WebhookType> {
    return toWebhook(await svc(ctx).update(caller(ctx), args), ctx.services.config.APP_SECRET);
  }

  @Authorized('webhooks_full')
  @Mutation(() => WebhookType, { description: 'A new signing secret, used from the next request on; the old one no longer signs (GraphQL only).' })
  async rotate_webhook_secret(@Context() ctx: Ctx, @Args() { webhook_id }: WebhookIdArgs): Promise<WebhookType> {
    return toWebhook(await svc(ctx).rotateSecret(caller(ctx), webhook_id), ctx.services.config.APP_SECRET);
  }

  @Authorized('webhooks_full')
  @Mutation(() => Boolean)
  async delete_webhook(@Context() ctx: Ctx, @Args() { webhook_id }: WebhookIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), webhook_id);
  }
}
