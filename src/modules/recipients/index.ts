import type { ModuleManifest } from '../module.js';
import { DomainRecipientsResolver } from './domain-recipients.resolver.js';
import { RecipientResolver } from './recipient.resolver.js';
import { recipientRoutes } from './recipient.rest.js';

export const recipientsModule: ModuleManifest = {
  name: 'recipients',
  resolvers: [DomainRecipientsResolver, RecipientResolver],
  rest: [
    { name: 'Recipients', description: 'Recipients of the account.', routes: recipientRoutes },
  ],
};
