import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createSse } from 'graphql-sse';
import { authHeaders } from './session';

// Subscriptions (the activity page's live feed) go over SSE at /graphql/stream, same credentials.
const sse = createSse({
  url: '/graphql/stream',
  credentials: 'same-origin',
  headers: () => authHeaders(),
});

/** One client per sign-in: nothing one user's queries cached reaches the next. */
export const makeClient = () => new Client({
  url: '/graphql',
  requestPolicy: 'cache-and-network',
  // POST with a JSON body: Apollo's CSRF prevention refuses simple GET requests, and POST carries the CSRF header.
  preferGetMethod: false,
  fetchOptions: () => ({ credentials: 'same-origin', headers: authHeaders() }),
  exchanges: [
    cacheExchange,
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
