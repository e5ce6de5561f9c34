import type { ModuleManifest } from '../module.js';
import { Template } from './template.entity.js';
import { TemplateResolver } from './template.resolver.js';
import { TemplateTranslationResolver } from './template-translation.resolver.js';
import { templateRoutes } from './template.rest.js';

export const templatesModule: ModuleManifest = {
  name: 'templates',
  resolvers: [TemplateResolver, TemplateTranslationResolver],
  // SPEC.md's single template has one `category` and no content; the full list and the content
  // (for editors) are GraphQL's.
  hiddenOnRest: ['Template.categories', 'Template.subject', 'Template.html', 'Template.text'],
  rest: [
    { name: 'Templates', description: 'Email templates.', routes: templateRoutes },
  ],
};
