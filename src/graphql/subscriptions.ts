import type { SubscribeResolverData } from 'type-graphql';
import { caller, type Auth, type Ctx } from './context.js';
import { asGraphQLError } from './errors.js';
import { asUnavailable } from './unavailable.js';
import { errors } from '../core/errors.js';
import { liveStreamsStopped } from '../lib/metrics.js';
import { FELL_BEHIND, LiveQueue, type Live } from './live-queue.js';

/**
 * The event source of a subscription whose arguments name something the caller must be able to
 * reach (a domain, a webhook). `check` runs first and throws what the /v1 twin answers for it
 * (404 for another account's, 403 outside a domain-limited caller's domain); only then is the
 * topic listened to. A refused subscription is one error event and a closed stream, never a stream
 * held open that merely hears nothing. `hears` still filters each event: a token's access can narrow
 * while its stream is open (http/stream-guard.ts ends such streams, this covers the moment before).
 * Events wait for a slow reader in a bounded queue (live-queue.ts). Guarded by
 * test/graphql/subscriptions.test.ts and test/graphql/live-streams.test.ts.
 */
export function checkedSubscription<Args, Payload>(opts: {
  check?: (ctx: Ctx, auth: Auth, args: Args) => Promise<unknown>;
  topic: (auth: Auth) => string;
  hears: (payload: Payload, args: Args, auth: Auth) => boolean;
}) {
  return async ({ args, context }: SubscribeResolverData<unknown, Args, Ctx>): Promise<AsyncIterable<Live<Payload>>> => {
    let auth: Auth;
    try {
      auth = caller(context);
      // A fork of its own: the subscription's context lives as long as the stream.
      if (opts.check) await opts.check({ ...context, em: context.em.fork() as Ctx['em'] }, auth, args);
    } catch (err) {
      // Outside the schema's middlewares, which convert what resolvers throw.
      throw asGraphQLError(asUnavailable(err));
    }
    const { config, pubsub } = context.services;
    let unlisten = () => {};
    const queue = new LiveQueue<Payload>({
      limit: config.STREAM_BUFFER_EVENTS,
      graceMs: config.STREAM_BEHIND_GRACE_SECONDS * 1000,
      hangUp: () => context.hangUp?.(),
      unlisten: () => unlisten(),
      onBehind: () => liveStreamsStopped.inc({ why: 'behind' }),
    });
    unlisten = pubsub.listen(opts.topic(auth), (payload) => {
      if (opts.hears(payload as Payload, args, auth)) queue.push(payload as Payload);
    });
    return queue;
  };
}

/**
 * A subscription resolver's root as the event it is. The marker of a stream that fell behind
 * becomes the error event its client reads before the stream completes.
 */
export function eventOf<T>(root: Live<T>, ctx: Ctx): T {
  if (root === FELL_BEHIND) throw errors.streamBehind(ctx.services.config.STREAM_BUFFER_EVENTS);
  return root;
}
