import type { FastifyReply, FastifyRequest } from 'fastify';
import { createGraphQLError, createYoga, type Plugin } from 'graphql-yoga';
import { appErrorOf, asGraphQLError, toGraphQLError } from '../graphql/errors.js';
import { yogaGuard } from './graphql-guard.js';
import { sharedSubscribe } from '../graphql/shared-events.js';
import { sseFrames } from './sse-frames.js';
import { StreamGuard } from './stream-guard.js';
import { isUnexpected } from './errors.js';
import type { Mount } from './mount.js';

/** Each event executed once per group of listeners with the same answer (graphql/shared-events.ts). */
const sharedEvents: Plugin = {
  onSubscribe({ setSubscribeFn }) {
    setSubscribeFn(sharedSubscribe as Parameters<typeof setSubscribeFn>[0]);
  },
};

/** /graphql/stream: subscriptions over SSE (graphql-yoga), on the same schema. */
export function mountStream({ app, services, schema, limits, gated, ctxFor, meterInto }: Mount): void {
  const { log, config } = services;
  const streams = new StreamGuard(services.orm, services.pubsub, log, config);
  app.addHook('onClose', async () => streams.stop());
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }>({
    schema,
    graphqlEndpoint: '/graphql/stream',
    logging: false,
    graphiql: false,
    plugins: [
      ...yogaGuard(limits),
      sharedEvents,
      sseFrames,
    ],
    maskedErrors: {
      errorMessage: 'Internal server error',
      maskError: (error, message) => {
        const err = appErrorOf(error);
        if (err) return (error as { extensions?: { http?: unknown } }).extensions?.http ? (error as Error) : toGraphQLError(err);
        // GraphQL's own refusals (parse, validation, the guards) are the caller's: as they are.
        if (!isUnexpected(error)) return error as Error;
        log.error({ err: error }, 'unexpected GraphQL stream error');
        // The same answer as Apollo's formatError gives on /graphql.
        return createGraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    // A subscription is metered once, when it connects, and ends when its token changes.
    context: async ({ req, reply }) => {
      try {
        const ctx = await ctxFor(req, meterInto(reply));
        if (ctx.auth) streams.watch(ctx.auth, reply.raw);
        // A stream that fell behind and whose client stopped reading (graphql/live-queue.ts).
        ctx.hangUp = () => reply.raw.destroy();
        return ctx;
      } catch (err) {
        throw asGraphQLError(err);
      }
    },
  });
  app.route({
    url: '/graphql/stream',
    method: ['GET', 'POST', 'OPTIONS'],
    ...gated,
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => reply.header(key, value));
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });
}
