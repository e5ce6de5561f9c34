import type { ModuleManifest } from '../module.js';
import { TemplateCategory, Template } from './template.entity.js';
import { TemplateResolver } from './template.resolver.js';
import { TemplateTranslation } from './template-translation.entity.js';
import { TemplateTranslationResolver } from './template-translation.resolver.js';
import { templateRoutes } from './template.rest.js';

export const templatesModule: ModuleManifest = {
  name: 'templates',
  entities: [TemplateCategory, Template, TemplateTranslation],
  resolvers: [TemplateResolver, TemplateTranslationResolver],
  // SPEC.md's single template has one `category`; the full list is GraphQL's.
  hiddenOnRest: ['Template.categories'],
  rest: [
    { name: 'Templates', description: 'Email templates.', routes: templateRoutes },
  ],
};
