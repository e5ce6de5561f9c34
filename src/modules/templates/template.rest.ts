import type { RouteTable } from '../../../rest-mapping/types.js';

// Template categories have no /v1 routes (SPEC.md has none): GraphQL only.
export const templateRoutes: RouteTable = {
  'Query.templates': { method: 'GET', path: '/templates', envelope: 'paged' },
  'Query.template': { method: 'GET', path: '/templates/:template_id', envelope: 'data' },
  'Mutation.create_template': { method: 'POST', path: '/templates', status: 201, envelope: 'data' },
  'Mutation.update_template': { method: 'PUT', path: '/templates/:template_id', envelope: 'data' },
  'Mutation.delete_template': { method: 'DELETE', path: '/templates/:template_id', status: 204, envelope: 'none' },
  // Translations (SPEC.md has none): nested under their template, one per language.
  'Query.template_translations': { method: 'GET', path: '/templates/:template_id/translations', envelope: 'data' },
  'Query.template_translation': { method: 'GET', path: '/templates/:template_id/translations/:language', envelope: 'data' },
  'Mutation.create_template_translation': { method: 'POST', path: '/templates/:template_id/translations', status: 201, envelope: 'data' },
  'Mutation.update_template_translation': { method: 'PUT', path: '/templates/:template_id/translations/:language', envelope: 'data' },
  'Mutation.delete_template_translation': { method: 'DELETE', path: '/templates/:template_id/translations/:language', status: 204, envelope: 'none' },
};
