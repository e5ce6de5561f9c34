import type { RouteTable } from '../../../rest-mapping/types.js';

export const webhookLogRoutes: RouteTable = {
  'Query.webhook_log': { method: 'GET', path: '/webhooks/:webhook_id/log', envelope: 'paged' },
  // 202: the deliveries are queued again here and sent by the worker.
  'Mutation.replay_webhook': { method: 'POST', path: '/webhooks/:webhook_id/replay', status: 202, envelope: 'data' },
};
