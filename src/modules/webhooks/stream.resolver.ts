import { Arg, Authorized, Ctx as Context, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import type { Live } from '../../graphql/live-queue.js';
import { checkedSubscription, eventOf } from '../../graphql/subscriptions.js';
import { WebhookLogEntry } from './log.type.js';
import { attemptTopic, type AttemptNotice } from './log.notice.js';
import { WEBHOOK_KIND, Webhook } from './webhook.entity.js';
import { domainsOf } from '../../core/actor.js';
import { findOwned } from '../../db/scoped.js';

@Resolver()
export class WebhookStreamResolver {
  @Authorized('webhooks_full')
  @Subscription(() => WebhookLogEntry, {
    name: 'webhook_deliveries',
    description: 'Each delivery attempt of one webhook, live (GraphQL over SSE at /graphql/stream), from whichever process made it.',
    subscribe: checkedSubscription<{ webhook_id: string }, AttemptNotice>({
      // Found as GET /v1/webhooks/{webhook_id}/log finds it: an email webhook of the account (else 404),
      // of a domain the caller may reach (else 403).
      check: (ctx, auth, args) => findOwned(ctx.em, Webhook, auth, { id: args.webhook_id, kind: WEBHOOK_KIND.email }),
      topic: (auth) => attemptTopic(auth.accountId),
      hears: (notice, args, auth) => {
        // Email webhooks only (they always have a domain): SMS webhooks are for sms_* scopes.
        if (notice.webhook_id !== args.webhook_id || notice.domain_id === null) return false;
        const own = domainsOf(auth);
        return !own || own.includes(notice.domain_id);
      },
    }),
  })
  webhook_deliveries(@Root() root: Live<AttemptNotice>, @Context() ctx: Ctx, @Arg('webhook_id', () => ID) _webhook_id: string): WebhookLogEntry {
    // Timestamps arrive as JSON text; the IsoTimestamp scalar formats either.
    return eventOf(root, ctx).entry;
  }
}
