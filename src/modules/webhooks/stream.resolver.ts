import { Arg, Authorized, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { WebhookLogEntry } from './log.type.js';
import { attemptTopic, type AttemptNotice } from './log.notice.js';
import { errors } from '../../core/errors.js';
import { domainsOf } from '../../core/actor.js';

@Resolver()
export class WebhookStreamResolver {
  @Authorized('webhooks_full')
  @Subscription(() => WebhookLogEntry, {
    name: 'webhook_deliveries',
    description: 'Each delivery attempt of one webhook, live (GraphQL over SSE at /graphql/stream), from whichever process made it.',
    topics: ({ context }) => {
      const ctx = context as Ctx;
      if (!ctx.auth) throw errors.unauthenticated();
      return attemptTopic(ctx.auth.accountId);
    },
    filter: ({ payload, args, context }) => {
      const auth = (context as Ctx).auth;
      const notice = payload as AttemptNotice;
      // Email webhooks only (they always have a domain): SMS webhooks are for sms_* scopes.
      if (notice.webhook_id !== args.webhook_id || notice.domain_id === null) return false;
      const own = auth ? domainsOf(auth) : null;
      return !own || own.includes(notice.domain_id);
    },
  })
  webhook_deliveries(@Root() notice: AttemptNotice, @Arg('webhook_id', () => ID) _webhook_id: string): WebhookLogEntry {
    // Timestamps arrive as JSON text; the IsoTimestamp scalar formats either.
    return notice.entry;
  }
}
