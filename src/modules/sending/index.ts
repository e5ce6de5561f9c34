import type { ModuleManifest } from '../module.js';
import { domainSendingResumed } from '../domains/domain.events.js';
import { releaseOnDomainResumed } from './send.service.js';
import { SendResolver } from './send.resolver.js';
import { deliverJob } from './deliver.job.js';
import { sendingPurgeJob } from './purge.job.js';
import { sendingPurgeWorker } from './purge.worker.js';
import { emailRoutes } from './send.rest.js';

// Work that belongs to sending but starts in a module below it.
domainSendingResumed.on(releaseOnDomainResumed);

export const sendingModule: ModuleManifest = {
  name: 'sending',
  resolvers: [SendResolver],
  jobs: [deliverJob, sendingPurgeJob],
  workers: [sendingPurgeWorker],
  rest: [
    { name: 'Email', description: 'Sending one email.', routes: emailRoutes },
  ],
};
