import { Arg, Authorized, Ctx as Context, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { checkedSubscription, eventOf } from '../../graphql/subscriptions.js';
import type { Live } from '../../graphql/live-queue.js';
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
    @Root() root: Live<ActivityNotice>,
    @Context() ctx: Ctx,
    @Arg('domain_id', () => ID) _domain_id: string,
  ): Promise<ActivityEntry[]> {
    const notice = eventOf(root, ctx);
    const auth = ctx.auth!;
    // Every listener of a topic is handed the same notice: listeners with the same access share
    // one read of its rows (bench:subscriptions). Read fresh for each event on a fork of its own:
    // the subscription's context lives as long as the stream.
    const reads = sharedReads.get(notice) ?? new Map<string, Promise<ActivityEntry[]>>();
    sharedReads.set(notice, reads);
    const access = `${auth.accountId} ${domainsOf(auth)?.join(',') ?? '*'}`;
    let read = reads.get(access);
    if (!read) {
      read = new ActivityService(ctx.em.fork() as Ctx['em']).byIds(auth, notice.ids);
      reads.set(access, read);
    }
    return read;
  }
}

/** One read per notice and access, dropped with the notice. */
const sharedReads = new WeakMap<ActivityNotice, Map<string, Promise<ActivityEntry[]>>>();
