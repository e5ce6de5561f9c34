import { Args, Authorized, Ctx as Context, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { EmailIdArgs, EmailListArgs } from './email.inputs.js';
import { EmailLogService } from './email.service.js';
import { EmailWebhookDelivery, LoggedEmail, LoggedEmailDetail } from './email.type.js';

const svc = (ctx: Ctx) => new EmailLogService(ctx.em, ctx.services.config.APP_SECRET);

/** The email log is activity data: reading it takes `activity_read` (which `activity_full` implies). */
@Resolver(() => LoggedEmailDetail)
export class EmailLogResolver {
  @Authorized('activity_read')
  @Query(() => [LoggedEmail], { description: 'The email log, newest first (GET /v1/emails).' })
  emails(@Context() ctx: Ctx, @Args() args: EmailListArgs): Promise<LoggedEmail[]> {
    return svc(ctx).list(caller(ctx), args);
  }

  @Authorized('activity_read')
  @Query(() => LoggedEmailDetail, { description: 'One email with its activity and, when captured, its content.' })
  email(@Context() ctx: Ctx, @Args() { email_id }: EmailIdArgs): Promise<LoggedEmailDetail> {
    return svc(ctx).get(caller(ctx), email_id);
  }

  /**
   * Read only when selected. /v1 selects every field and then drops this one (hiddenOnRest: SPEC.md's
   * email has no such field), so it is not read there at all.
   */
  @FieldResolver(() => [EmailWebhookDelivery], {
    nullable: true,
    description: 'The webhook deliveries of its events, newest first, at most 100; null without the webhooks_full scope.',
  })
  webhook_deliveries(@Context() ctx: Ctx, @Root() email: LoggedEmailDetail): Promise<EmailWebhookDelivery[] | null> | null {
    if (ctx.surface === 'rest') return null;
    return svc(ctx).webhookDeliveries(caller(ctx), email);
  }
}
