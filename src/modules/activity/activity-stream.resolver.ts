import { Arg, Authorized, Ctx as Context, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { ActivityService } from './activity.service.js';
import { ActivityEntry } from './activity.type.js';
import { errors } from '../../core/errors.js';
import { domainsOf } from '../../core/actor.js';
import { activityTopic, type ActivityNotice } from './activity.notice.js';


@Resolver()
export class ActivityStreamResolver {
  @Authorized('activity_read')
  @Subscription(() => [ActivityEntry], {
    name: 'activity',
    description:
      'New activity of one domain, live (GraphQL over SSE at /graphql/stream): each event is what one change recorded. ' +
      'It comes from whichever process made it (Postgres LISTEN/NOTIFY) once its transaction commits.',
    topics: ({ context }) => {
      const ctx = context as Ctx;
      if (!ctx.auth) throw errors.unauthenticated();
      return activityTopic(ctx.auth.accountId);
    },
    filter: ({ payload, args, context }) => {
      const auth = (context as Ctx).auth;
      const notice = payload as ActivityNotice;
      const own = auth ? domainsOf(auth) : null;
      return notice.domain_id === args.domain_id && (!own || own.includes(notice.domain_id));
    },
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
