import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import { createGraphQLError, createYoga } from 'graphql-yoga';
import { appErrorOf, asGraphQLError, toGraphQLError } from '../graphql/errors.js';
import { yogaGuard } from './graphql-guard.js';
import { liveStreams, unwrittenStream, writeSse, type SseBounds } from './sse-frames.js';
import { StreamGuard } from './stream-guard.js';
import { isUnexpected } from './errors.js';
import type { Mount } from './mount.js';

const INTERNAL = 'Internal server error';

/** /graphql/stream: subscriptions over SSE (graphql-yoga), on the same schema. */
export function mountStream({ app, services, schema, limits, gated, ctxFor, meterInto }: Mount): void {
  const { log, config } = services;
  const maskError = (error: unknown, message: string): Error => {
    const err = appErrorOf(error);
    if (err) return (error as { extensions?: { http?: unknown } }).extensions?.http ? (error as Error) : toGraphQLError(err);
    // GraphQL's own refusals (parse, validation, the guards) are the caller's: as they are.
    if (!isUnexpected(error)) return error as Error;
    log.error({ err: error }, 'unexpected GraphQL stream error');
    // The same answer as Apollo's formatError gives on /graphql.
    return createGraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
  const bounds: SseBounds = {
    limit: config.STREAM_BUFFER_EVENTS,
    graceMs: config.STREAM_BEHIND_GRACE_SECONDS * 1000,
    mask: (result) => ({ ...result, errors: result.errors?.map((e) => maskError(e, INTERNAL) as GraphQLError) }),
  };
  const streams = new StreamGuard(services.orm, services.pubsub, log, config);
  app.addHook('onClose', async () => streams.stop());
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }>({
    schema,
    graphqlEndpoint: '/graphql/stream',
    logging: false,
    graphiql: false,
    plugins: [
      ...yogaGuard(limits),
      liveStreams,
    ],
    maskedErrors: { errorMessage: INTERNAL, maskError },
    // A subscription is metered once, when it connects, and ends when its token changes.
    context: async ({ req, reply }) => {
      try {
        const ctx = await ctxFor(req, meterInto(reply));
        if (ctx.auth) streams.watch(ctx.auth, reply.raw);
        // A stream that fell behind and whose client stopped reading (graphql/live-queue.ts).
        ctx.hangUp = () => reply.raw.destroy();
        return ctx;
      } catch (err) {
        // A refusal that says when to try again (a stream cap, the rate limit) says it as /v1 does.
        const retryAfter = appErrorOf(err)?.retryAfter;
        if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
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
      const stream = unwrittenStream(response);
      if (!stream) return reply.send(response.body);
      // A live stream: written to the socket as its events come (sse-frames.ts), past fastify's send.
      reply.hijack();
      reply.raw.writeHead(response.status, reply.getHeaders() as OutgoingHttpHeaders);
      writeSse(stream, reply.raw, bounds);
      return reply;
    },
  });
}
