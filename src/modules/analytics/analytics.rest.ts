import type { RouteTable } from '../../../rest-mapping/types.js';

export const analyticsRoutes: RouteTable = {
  'Query.analytics_date': { method: 'GET', path: '/analytics/date', envelope: 'data' },
  'Query.analytics_country': { method: 'GET', path: '/analytics/country', envelope: 'data' },
  'Query.analytics_ua_name': { method: 'GET', path: '/analytics/ua-name', envelope: 'data' },
  'Query.analytics_ua_type': { method: 'GET', path: '/analytics/ua-type', envelope: 'data' },
};
