import type { ModuleManifest } from '../module.js';
import { domainSendingResumed } from '../domains/domain.events.js';
import { releaseOnDomainResumed } from './send.service.js';
import { SendResolver } from './send.resolver.js';
import { emailRoutes } from './send.rest.js';

// Work that belongs to sending but starts in a module below it.
domainSendingResumed.on(releaseOnDomainResumed);

export const sendingModule: ModuleManifest = {
  name: 'sending',
  resolvers: [SendResolver],
  rest: [
    { name: 'Email', description: 'Sending one email.', routes: emailRoutes },
  ],
};
