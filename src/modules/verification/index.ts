import type { ModuleManifest } from '../module.js';
import { VerificationResolver } from './verification.resolver.js';
import { VerificationListResolver } from './list.resolver.js';
import { verificationRoutes } from './verification.rest.js';
import { verificationListRoutes } from './list.rest.js';

export const verificationModule: ModuleManifest = {
  name: 'verification',
  resolvers: [VerificationResolver, VerificationListResolver],
  rest: [
    { name: 'Email verification', description: 'Verifying single addresses and lists of them.', routes: { ...verificationRoutes, ...verificationListRoutes } },
  ],
};
