import type { ModuleManifest } from '../module.js';
import { DomainResolver } from './domain.resolver.js';
import { domainRoutes } from './domain.rest.js';

export const domainsModule: ModuleManifest = {
  name: 'domains',
  resolvers: [DomainResolver],
  rest: [
    { name: 'Domains', description: 'Sending domains, their DNS records, verification and settings.', routes: domainRoutes },
  ],
};
