import { filter, pipe } from '@graphql-yoga/subscription';
import type { SubscribeResolverData } from 'type-graphql';
import { caller, type Auth, type Ctx } from './context.js';
import { asGraphQLError } from './errors.js';
import { asUnavailable } from './unavailable.js';

/**
 * The event source of a subscription whose arguments name something the caller must be able to
 * reach (a domain, a webhook). `check` runs first and throws what the /v1 twin answers for it
 * (404 for another account's, 403 outside a domain-limited caller's domain); only then is the
 * topic listened to. A refused subscription is one error event and a closed stream, never a stream
 * held open that merely hears nothing. `hears` still filters each event: a token's access can narrow
 * while its stream is open (http/stream-guard.ts ends such streams, this covers the moment before).
 * Guarded by test/graphql/subscriptions.test.ts.
 */
export function checkedSubscription<Args, Payload>(opts: {
  check: (ctx: Ctx, auth: Auth, args: Args) => Promise<unknown>;
  topic: (auth: Auth) => string;
  hears: (payload: Payload, args: Args, auth: Auth) => boolean;
}) {
  return async ({ args, context }: SubscribeResolverData<unknown, Args, Ctx>): Promise<AsyncIterable<unknown>> => {
    let auth: Auth;
    try {
      auth = caller(context);
      // A fork of its own: the subscription's context lives as long as the stream.
      await opts.check({ ...context, em: context.em.fork() as Ctx['em'] }, auth, args);
    } catch (err) {
      // Outside the schema's middlewares, which convert what resolvers throw.
      throw asGraphQLError(asUnavailable(err));
    }
    const events = context.services.pubsub.subscribe(opts.topic(auth)) as AsyncIterable<Payload>;
    return pipe(
      events,
      filter((payload: Payload) => opts.hears(payload, args, auth)),
    );
  };
}
