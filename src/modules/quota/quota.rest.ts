import type { RouteTable } from '../../../rest-mapping/types.js';

export const quotaRoutes: RouteTable = {
  // MailerSend answers `{quota, remaining, reset}` bare, without a `data` wrapper (COMPAT.md).
  'Query.api_quota': { method: 'GET', path: '/api-quota', envelope: 'raw', description: 'The daily API quota; asking for it does not use it up.' },
};
