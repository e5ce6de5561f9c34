import type { RouteSpec, RouteTable } from '../../../rest-mapping/types.js';

/** Each list answers GET, POST and DELETE at one path; lists are not paged (`{data: [...]}`). */
function listRoutes(path: string, query: string, add: string, remove: string): RouteTable {
  const at = (method: RouteSpec['method'], status: RouteSpec['status'], envelope: RouteSpec['envelope']): RouteSpec =>
    ({ method, path: `/suppressions/${path}`, status, envelope });
  return {
    [`Query.${query}`]: at('GET', 200, 'data'),
    [`Mutation.${add}`]: at('POST', 201, 'data'),
    [`Mutation.${remove}`]: at('DELETE', 204, 'none'),
  };
}

export const suppressionRoutes: RouteTable = {
  ...listRoutes('blocklist', 'blocklist', 'add_to_blocklist', 'delete_from_blocklist'),
  ...listRoutes('hard-bounces', 'hard_bounces', 'add_hard_bounces', 'delete_hard_bounces'),
  ...listRoutes('spam-complaints', 'spam_complaints', 'add_spam_complaints', 'delete_spam_complaints'),
  ...listRoutes('unsubscribes', 'unsubscribes', 'add_unsubscribes', 'delete_unsubscribes'),
  ...listRoutes('on-hold-list', 'on_hold_list', 'add_on_hold_list', 'delete_on_hold_list'),
};
