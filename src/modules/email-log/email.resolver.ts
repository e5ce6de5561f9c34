import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { EmailIdArgs, EmailListArgs } from './email.inputs.js';
import { EmailLogService } from './email.service.js';
import { LoggedEmail, LoggedEmailDetail } from './email.type.js';

const svc = (ctx: Ctx) => new EmailLogService(ctx.em);

/** The email log is activity data: reading it takes `activity_read` (which `activity_full` implies). */
@Resolver()
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
}
