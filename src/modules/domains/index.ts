import type { ModuleManifest } from '../module.js';
import { Domain } from './domain.entity.js';
import { DomainResolver } from './domain.resolver.js';
import { domainRecheckJob } from './domain-check.job.js';
import { domainRecheckWorker } from './domain-check.worker.js';
import { domainRoutes } from './domain.rest.js';

export const domainsModule: ModuleManifest = {
  name: 'domains',
  entities: [Domain],
  resolvers: [DomainResolver],
  jobs: [domainRecheckJob],
  workers: [domainRecheckWorker],
  rest: [
    { name: 'Domains', description: 'Sending domains, their DNS records, verification and settings.', routes: domainRoutes },
  ],
};
