import type { RouteTable } from '../../../rest-mapping/types.js';

/** The email log (SPEC.md names only its filters; not among the paged lists, so a plain `data`). */
export const emailLogRoutes: RouteTable = {
  'Query.emails': { method: 'GET', path: '/emails', envelope: 'data' },
  // An activity entry has suppression_reason only when suppressed, as on /v1/activity.
  'Query.email': { method: 'GET', path: '/email/:email_id', envelope: 'data', omitNull: ['activity.suppression_reason'] },
  // Not in SPEC.md: the sandbox's inbox (MAIL_TRANSPORT=capture), for the offline quick start.
  'Query.captured_emails': { method: 'GET', path: '/captured-emails', envelope: 'paged' },
};

export const messageRoutes: RouteTable = {
  'Query.messages': { method: 'GET', path: '/messages', envelope: 'data' },
  'Query.message': { method: 'GET', path: '/messages/:message_id', envelope: 'data' },
};
