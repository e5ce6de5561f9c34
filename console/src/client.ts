import { Client, cacheExchange, fetchExchange, makeOperation, mapExchange, subscriptionExchange, type CombinedError, type Operation } from 'urql';
import { createClient as createSse } from 'graphql-sse';
import { authHeaders } from './session';
import { operationId } from './operation-id';

// Subscriptions (the activity page's live feed) go over SSE at /graphql/stream, same credentials.
const sse = createSse({
  url: '/graphql/stream',
  credentials: 'same-origin',
  headers: () => authHeaders(),
});

/** Whether the server no longer knows the caller: the session ended elsewhere or expired, or the token was deleted. */
const signedOut = (error: CombinedError) =>
  error.response?.status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED');

/**
 * Queries and mutations go by id: the sha256 codegen gave each document (`__meta__.hash`, the key
 * of persisted-documents.json, which the server loads with the console). urql then sends the id
 * in `extensions.persistedQuery` and leaves the text out. Subscriptions (SSE) send their text.
 */
function byId(operation: Operation): Operation {
  const hash = operationId(operation.query);
  if (!hash || operation.kind === 'subscription' || operation.kind === 'teardown') return operation;
  return makeOperation(operation.kind, { ...operation, extensions: { ...operation.extensions, persistedQuery: { version: 1, sha256Hash: hash } } }, operation.context);
}

/**
 * One client per sign-in: nothing one user's queries cached reaches the next. `onSignedOut` runs
 * when an answer says the session is gone, so the console asks to sign in again instead of
 * showing stale pages.
 */
export const makeClient = (onSignedOut: () => void) => new Client({
  url: '/graphql',
  requestPolicy: 'cache-and-network',
  // POST with a JSON body: Apollo's CSRF prevention refuses simple GET requests, and POST carries the CSRF header.
  preferGetMethod: false,
  fetchOptions: () => ({ credentials: 'same-origin', headers: authHeaders() }),
  exchanges: [
    cacheExchange,
    mapExchange({
      onOperation: byId,
      onError(error) {
        if (signedOut(error)) onSignedOut();
      },
    }),
    fetchExchange,
    subscriptionExchange({
      forwardSubscription(operation) {
        return {
          subscribe: (sink) => ({
            unsubscribe: sse.subscribe({ ...operation, query: operation.query ?? '' }, sink),
          }),
        };
      },
    }),
  ],
});
