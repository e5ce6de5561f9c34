import type { RouteTable } from '../../../rest-mapping/types.js';

// GraphQL cannot name a field `2fa`; the wire keeps the name clients already read.
const rename = { two_fa: '2fa' };

export const userRoutes: RouteTable = {
  'Query.users': { method: 'GET', path: '/users', envelope: 'data', rename },
  'Query.user': { method: 'GET', path: '/users/:user_id', envelope: 'data', rename },
  // Inviting answers 200 with the invite, not 201 (SPEC.md).
  'Mutation.invite_user': { method: 'POST', path: '/users', status: 200, envelope: 'data' },
  'Mutation.update_user': { method: 'PUT', path: '/users/:user_id', envelope: 'data', rename },
  'Mutation.delete_user': { method: 'DELETE', path: '/users/:user_id', status: 204, envelope: 'none' },
  // The full pager (COMPAT.md Pagers); GraphQL's `invites` stays the plain list.
  'Query.invites_page': { method: 'GET', path: '/invites', envelope: 'paged' },
  'Query.invite': { method: 'GET', path: '/invites/:invite_id', envelope: 'data' },
  'Mutation.resend_invite': { method: 'POST', path: '/invites/:invite_id/resend', status: 200, envelope: 'data' },
  'Mutation.delete_invite': { method: 'DELETE', path: '/invites/:invite_id', status: 204, envelope: 'none' },
};
