import type { RouteTable } from '../../../rest-mapping/types.js';

/**
 * Verification lists (COMPAT.md). Their pager has no `last_page`/`total` (so `links.last` is
 * null) and prints `per_page` as a string, which the GraphQL meta type already carries.
 * Pause, cancel and the chunked upload (add emails, finish) are not named by COMPAT.md; they
 * follow the `/{id}/verify` shape.
 */
export const verificationListRoutes: RouteTable = {
  'Query.email_verification_lists': { method: 'GET', path: '/email-verification', envelope: 'paged', omitNull: ['emails'] },
  'Mutation.create_email_verification_list': { method: 'POST', path: '/email-verification', status: 201, envelope: 'data', omitNull: ['emails'] },
  'Query.email_verification_list': { method: 'GET', path: '/email-verification/:email_verification_id', envelope: 'data', omitNull: ['emails'] },
  'Mutation.verify_email_verification_list': { method: 'GET', path: '/email-verification/:email_verification_id/verify', status: 202, envelope: 'raw', extraErrors: [402] },
  'Query.email_verification_list_results': { method: 'GET', path: '/email-verification/:email_verification_id/results', envelope: 'paged' },
  'Mutation.add_email_verification_list_emails': { method: 'POST', path: '/email-verification/:email_verification_id/emails', envelope: 'data', omitNull: ['emails'] },
  'Mutation.finish_email_verification_list_upload': { method: 'PUT', path: '/email-verification/:email_verification_id/finish', envelope: 'data', omitNull: ['emails'] },
  'Mutation.pause_email_verification_list': { method: 'PUT', path: '/email-verification/:email_verification_id/pause', envelope: 'data', omitNull: ['emails'] },
  'Mutation.cancel_email_verification_list': { method: 'PUT', path: '/email-verification/:email_verification_id/cancel', envelope: 'data', omitNull: ['emails'] },
};
