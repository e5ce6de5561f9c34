import { ApolloServer } from '@apollo/server';
import * as disabled from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError } from 'graphql';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { Ctx } from '../graphql/context.js';
import { appErrorOf, asGraphQLError, extensionsOf } from '../graphql/errors.js';
import { withoutSuggestion } from '../graphql/limits.js';
import { rateLimitPlugin } from './ratelimit.js';
import { apolloGuard } from './graphql-guard.js';
import { PreparedOperations } from './graphql-prepared.js';
import { graphiqlHook } from './graphiql.js';
import { isUnexpected } from './errors.js';
import type { Mount } from './mount.js';

/** The error catalogue's shape of a GraphQL error, on both paths of /graphql (Apollo's formatError). */
function graphQLErrorFormat(limits: Mount['limits']) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    // Converted where it was thrown (schema middleware, auth checker, context); one that was not
    // still answers in the catalogue's shape.
    const err = appErrorOf(error);
    if (err) return { ...formatted, message: err.message, extensions: { ...formatted.extensions, ...extensionsOf(err) } };
    // A variable's unknown field or enum value: execution's own "Did you mean", which validation's switch misses.
    if (!isUnexpected(error)) return limits.suggestions ? formatted : { ...formatted, message: withoutSuggestion(formatted.message) };
    return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}

/** Apollo Server 5 on the schema, with the guards of graphql-guard.ts and the error catalogue's shapes. */
function apolloServer({ services, schema, metrics, limits }: Mount): ApolloServer<Ctx> {
  const { log, config } = services;
  const guard = apolloGuard<Ctx>(limits);
  return new ApolloServer<Ctx>({
    schema,
    ...guard.options,
    includeStacktraceInErrorResponses: false,
    // src/roles/process.ts owns shutdown; Apollo's own handler would re-raise the signal and skip ours.
    stopOnTerminationSignals: false,
    plugins: [
      // Apollo requests are metered once their operation is known, not in the context.
      rateLimitPlugin(config, log),
      {
        // Logged here rather than in formatError, which has no request context.
        async requestDidStart() {
          return {
            async didEncounterErrors({ errors, contextValue }) {
              for (const error of errors) {
                if (isUnexpected(error)) {
                  metrics.unexpectedErrors.inc();
                  log.error({ err: (error as { originalError?: unknown }).originalError ?? error, reqId: contextValue?.requestId }, 'unexpected GraphQL error');
                }
              }
            },
          };
        },
      },
      ...guard.plugins,
      // Its landing page loads Sandbox from a CDN; browsers get the offline GraphiQL instead (graphiql.ts).
      disabled.ApolloServerPluginLandingPageDisabled(),
      // Installed by default, they hook every field's resolution (cache hints, traces) for a header
      // and a report this API never uses: a list of 25 rows paid it per field (bench:routing).
      disabled.ApolloServerPluginCacheControlDisabled(),
      disabled.ApolloServerPluginInlineTraceDisabled(),
      disabled.ApolloServerPluginUsageReportingDisabled(),
    ],
    formatError: graphQLErrorFormat(limits),
  });
}

/** /graphql: the offline IDE for a browser's GET, the prepared path for the common case, Apollo for everything else. */
export async function mountGraphQL(m: Mount): Promise<void> {
  const { app, limits, bodies, gated, ctxFor, schema, services, metrics } = m;
  const apollo = apolloServer(m);
  await apollo.start();
  const prepared = new PreparedOperations({
    schema,
    limits,
    log: services.log,
    ctxFor: (req) => ctxFor(req),
    formatError: graphQLErrorFormat(limits),
    onUnexpected: (error, ctx) => {
      metrics.unexpectedErrors.inc();
      services.log.error({ err: error.originalError ?? error, reqId: ctx.requestId }, 'unexpected GraphQL error');
    },
  });
  const apolloHandler = fastifyApolloHandler(apollo, {
    context: async (req) => {
      try {
        return await ctxFor(req);
      } catch (err) {
        throw asGraphQLError(err);
      }
    },
  });
  // Fastify's close drains connections; Apollo stops with it (its drain plugin would call close again).
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    bodyLimit: bodies.graphql,
    // A browser's GET gets the IDE; every other request goes on to the handler.
    onRequest: [gated.onRequest, graphiqlHook({ introspection: limits.introspection !== 'off' })],
    preParsing: gated.preParsing,
    // The common case on its prepared path (graphql-prepared.ts), everything else through Apollo.
    handler: async function (req, reply) {
      type Apollo = Parameters<typeof apolloHandler>;
      return (await prepared.serve(req, reply)) ?? apolloHandler.call(this, req as Apollo[0], reply as Apollo[1]);
    },
  });
}
