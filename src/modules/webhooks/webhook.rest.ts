import type { RouteTable } from '../../../rest-mapping/types.js';

export const webhookRoutes: RouteTable = {
  'Query.webhooks': { method: 'GET', path: '/webhooks', envelope: 'paged' },
  'Query.webhook': { method: 'GET', path: '/webhooks/:webhook_id', envelope: 'data' },
  'Mutation.create_webhook': { method: 'POST', path: '/webhooks', status: 201, envelope: 'data' },
  'Mutation.update_webhook': { method: 'PUT', path: '/webhooks/:webhook_id', envelope: 'data' },
  'Mutation.delete_webhook': { method: 'DELETE', path: '/webhooks/:webhook_id', status: 204, envelope: 'none' },
};
