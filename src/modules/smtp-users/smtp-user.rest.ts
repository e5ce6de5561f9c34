import type { RouteTable } from '../../../rest-mapping/types.js';

const BASE = '/domains/:domain_id/smtp-users';

export const smtpUserRoutes: RouteTable = {
  'Query.smtp_users': { method: 'GET', path: BASE, envelope: 'data' },
  'Query.smtp_user': { method: 'GET', path: `${BASE}/:smtp_user_id`, envelope: 'data' },
  'Mutation.create_smtp_user': { method: 'POST', path: BASE, status: 201, envelope: 'data' },
  'Mutation.update_smtp_user': { method: 'PUT', path: `${BASE}/:smtp_user_id`, envelope: 'data' },
  'Mutation.delete_smtp_user': { method: 'DELETE', path: `${BASE}/:smtp_user_id`, status: 204, envelope: 'none' },
};
