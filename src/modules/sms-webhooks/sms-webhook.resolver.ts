import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateSmsWebhookArgs, SmsWebhookIdArgs, SmsWebhookListArgs, UpdateSmsWebhookArgs } from './sms-webhook.inputs.js';
import { SmsWebhookService } from './sms-webhook.service.js';
import { SmsWebhookType, toSmsWebhook } from './sms-webhook.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new SmsWebhookService(ctx.em, ctx.services);

@Resolver()
export class SmsWebhookResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsWebhookType], { description: 'The SMS webhooks of one SMS number, newest first.' })
  async sms_webhooks(@Context() ctx: Ctx, @Args() args: SmsWebhookListArgs): Promise<SmsWebhookType[]> {
    const rows = await svc(ctx).list(caller(ctx), args);
    return rows.map((w) => toSmsWebhook(w, ctx.services.config.APP_SECRET));
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsWebhookType)
  async sms_webhook(@Context() ctx: Ctx, @Args() { sms_webhook_id }: SmsWebhookIdArgs): Promise<SmsWebhookType> {
    return toSmsWebhook(await svc(ctx).get(caller(ctx), sms_webhook_id), ctx.services.config.APP_SECRET);
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsWebhookType, { description: 'Sends the signed webhook.test request first; a non-2xx answer is a 422 on url.' })
  async create_sms_webhook(@Context() ctx: Ctx, @Args() args: CreateSmsWebhookArgs): Promise<SmsWebhookType> {
    return toSmsWebhook(await svc(ctx).create(caller(ctx), args), ctx.services.config.APP_SECRET);
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsWebhookType, {
    description: 'A new url, or enabled turned on, sends the webhook.test request first. enabled=true also lifts an automatic pause.',
  })
  async update_sms_webhook(@Context() ctx: Ctx, @Args() args: UpdateSmsWebhookArgs): Promise<SmsWebhookType> {
    return toSmsWebhook(await svc(ctx).update(caller(ctx), args), ctx.services.config.APP_SECRET);
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => Boolean)
  async delete_sms_webhook(@Context() ctx: Ctx, @Args() { sms_webhook_id }: SmsWebhookIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), sms_webhook_id);
  }
}
