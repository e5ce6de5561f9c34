import type { RouteTable } from '../../../rest-mapping/types.js';

export const dmarcRoutes: RouteTable = {
  'Query.dmarc_monitors': { method: 'GET', path: '/dmarc-monitoring', envelope: 'data' },
  'Mutation.create_dmarc_monitor': { method: 'POST', path: '/dmarc-monitoring', status: 201, envelope: 'data' },
  'Mutation.update_dmarc_monitor': { method: 'PUT', path: '/dmarc-monitoring/:monitor_id', envelope: 'data' },
  'Mutation.delete_dmarc_monitor': { method: 'DELETE', path: '/dmarc-monitoring/:monitor_id', status: 204, envelope: 'none' },
  'Query.dmarc_report': { method: 'GET', path: '/dmarc-monitoring/:monitor_id/report', envelope: 'data', omitNull: ['is_favorite'] },
  'Query.dmarc_ip_report': { method: 'GET', path: '/dmarc-monitoring/:monitor_id/report/:ip', envelope: 'data' },
  'Query.dmarc_report_sources': { method: 'GET', path: '/dmarc-monitoring/:monitor_id/report-sources', envelope: 'data' },
  'Mutation.add_dmarc_favorite': {
    method: 'PUT',
    path: '/dmarc-monitoring/:monitor_id/favorite/:ip',
    envelope: 'raw',
    respond: () => ({ status: 200, body: {} }),
    responseDoc: { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
  },
  'Mutation.remove_dmarc_favorite': { method: 'DELETE', path: '/dmarc-monitoring/:monitor_id/favorite/:ip', status: 204, envelope: 'none' },
  'Mutation.upload_dmarc_report': {
    method: 'POST',
    path: '/dmarc-monitoring/:monitor_id/reports',
    status: 201,
    envelope: 'data',
    description: 'Body {"report": "<the file in base64 (XML, gzip or zip), or the XML>"}.',
  },
};
