import type { RouteTable } from '../../../rest-mapping/types.js';

export const domainRoutes: RouteTable = {
  'Query.domains': { method: 'GET', path: '/domains', envelope: 'paged' },
  'Query.domain': { method: 'GET', path: '/domains/:domain_id', envelope: 'data' },
  'Query.domain_dns_records': { method: 'GET', path: '/domains/:domain_id/dns-records', envelope: 'data' },
  'Query.domain_recipients': { method: 'GET', path: '/domains/:domain_id/recipients', envelope: 'paged' },
  'Mutation.create_domain': { method: 'POST', path: '/domains', status: 201, envelope: 'data' },
  'Mutation.update_domain_settings': { method: 'PUT', path: '/domains/:domain_id/settings', envelope: 'data' },
  'Mutation.delete_domain': { method: 'DELETE', path: '/domains/:domain_id', status: 204, envelope: 'none' },
  // A GET that runs the checks and stores their outcome, as clients of this API family call it.
  'Mutation.verify_domain': { method: 'GET', path: '/domains/:domain_id/verify', envelope: 'raw' },
};
