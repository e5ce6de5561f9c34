import type { ModuleManifest } from '../module.js';
import { TemplateCategory, Template } from './template.entity.js';
import { TemplateResolver } from './template.resolver.js';
import { templateRoutes } from './template.rest.js';

export const templatesModule: ModuleManifest = {
  name: 'templates',
  entities: [TemplateCategory, Template],
  resolvers: [TemplateResolver],
  rest: [
    { name: 'Templates', description: 'Email templates.', routes: templateRoutes },
  ],
};
