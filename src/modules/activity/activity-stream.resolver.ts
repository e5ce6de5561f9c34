import { Arg, Authorized, Ctx as Context, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { checkedSubscription } from '../../graphql/subscriptions.js';
import { ActivityService } from './activity.service.js';
import { ActivityEntry } from './activity.type.js';
import { domainsOf } from '../../core/actor.js';
import { ownedDomainId } from '../../db/scoped.js';
import { activityTopic, type ActivityNotice } from './activity.notice.js';

@Resolver()
export class ActivityStreamResolver {
  @Authorized('activity_read')
  @Subscription(() => [ActivityEntry], {
    name: 'activity',
    description:
      'New activity of one domain, live (GraphQL over SSE at /graphql/stream): each event is what one change recorded. ' +
      'It comes from whichever process made it (Postgres LISTEN/NOTIFY) once its transaction commits.',
    // The domain is checked as GET /v1/activity/{domain_id} checks it: 404 for another account's, 403 outside the caller's domains.
    subscribe: checkedSubscription<{ domain_id: string }, ActivityNotice>({
      check: (ctx, auth, args) => ownedDomainId(ctx.em, auth, args.domain_id),
      topic: (auth) => activityTopic(auth.accountId),
      hears: (notice, args, auth) => {
        const own = domainsOf(auth);
        return notice.domain_id === args.domain_id && (!own || own.includes(notice.domain_id));
      },
    }),
  })
  async activity_stream(
    @Root() notice: ActivityNotice,
    @Context() ctx: Ctx,
    @Arg('domain_id', () => ID) _domain_id: string,
  ): Promise<ActivityEntry[]> {
    // Read fresh for each event; the subscription's context lives as long as the stream.
    return new ActivityService(ctx.em.fork() as Ctx['em']).byIds(ctx.auth!, notice.ids);
  }
}
