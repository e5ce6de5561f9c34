import type { RouteTable } from '../../../rest-mapping/types.js';

export const identityRoutes: RouteTable = {
  'Query.sender_identities': { method: 'GET', path: '/identities', envelope: 'data' },
  'Query.sender_identity': { method: 'GET', path: '/identities/:identity_id', envelope: 'data' },
  'Query.sender_identity_by_email': { method: 'GET', path: '/identities/email/:email', envelope: 'data' },
  'Mutation.create_sender_identity': { method: 'POST', path: '/identities', status: 201, envelope: 'data' },
  'Mutation.update_sender_identity': { method: 'PUT', path: '/identities/:identity_id', envelope: 'data' },
  'Mutation.update_sender_identity_by_email': { method: 'PUT', path: '/identities/email/:email', envelope: 'data' },
  'Mutation.delete_sender_identity': { method: 'DELETE', path: '/identities/:identity_id', status: 204, envelope: 'none' },
  'Mutation.delete_sender_identity_by_email': {
    method: 'DELETE',
    path: '/identities/email/:email',
    status: 204,
    envelope: 'none',
  },
  'Mutation.resend_sender_identity': { method: 'POST', path: '/identities/:identity_id/resend', envelope: 'data' },
};
