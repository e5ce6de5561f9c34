import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { AuditEventListArgs } from './audit-event.inputs.js';
import { AuditEventService } from './audit-event.service.js';
import { AuditEventPage, toAuditEvent } from './audit-event.type.js';

@Resolver()
export class AuditEventResolver {
  /**
   * tokens_full: the log names every token of the account and what it did, which only
   * tokens_full may list; such a token can mint any other scope anyway, so it learns nothing here
   * it could not reach otherwise, while a users_read or webhooks_full token would.
   */
  @Authorized('tokens_full')
  @Query(() => AuditEventPage, {
    description: 'Changes to tokens, SMTP users, webhooks, SMS webhooks and users, newest first. A domain-limited token sees only its domain\'s subjects.',
  })
  async audit_events(@Context() ctx: Ctx, @Args() args: AuditEventListArgs): Promise<AuditEventPage> {
    const { rows, meta, unseenActors } = await new AuditEventService(ctx.em).list(caller(ctx), args);
    return { data: rows.map((e) => toAuditEvent(e, unseenActors)), meta };
  }
}
