import type { ModuleManifest } from '../module.js';
import { EmailVerification } from './verification.entity.js';
import { EmailVerificationList } from './list.entity.js';
import { VerificationResolver } from './verification.resolver.js';
import { VerificationListResolver } from './list.resolver.js';
import { verificationJob } from './verification.job.js';
import { verificationListJob } from './list.job.js';
import { verificationRoutes } from './verification.rest.js';
import { verificationListRoutes } from './list.rest.js';

export const verificationModule: ModuleManifest = {
  name: 'verification',
  entities: [EmailVerification, EmailVerificationList],
  resolvers: [VerificationResolver, VerificationListResolver],
  jobs: [verificationJob, verificationListJob],
  rest: [
    { name: 'Email verification', description: 'Verifying single addresses and lists of them.', routes: { ...verificationRoutes, ...verificationListRoutes } },
  ],
};
