import type { RestContract } from '../../rest-mapping/types.js';
import type { ModuleManifest, PlainRoutes } from './module.js';
import { operatorModule } from './operator/index.js';
import { tokensModule } from './tokens/index.js';
import { domainsModule } from './domains/index.js';
import { identitiesModule } from './identities/index.js';
import { smtpUsersModule } from './smtp-users/index.js';
import { usersModule } from './users/index.js';
import { templatesModule } from './templates/index.js';
import { recipientsModule } from './recipients/index.js';
import { suppressionsModule } from './suppressions/index.js';
import { sendingModule } from './sending/index.js';
import { bulkModule } from './bulk/index.js';
import { emailLogModule } from './email-log/index.js';
import { activityModule } from './activity/index.js';
import { analyticsModule } from './analytics/index.js';
import { webhooksModule } from './webhooks/index.js';
import { inboundModule } from './inbound/index.js';
import { verificationModule } from './verification/index.js';
import { blocklistModule } from './blocklist/index.js';
import { dmarcModule } from './dmarc/index.js';
import { smsNumbersModule } from './sms-numbers/index.js';
import { smsModule } from './sms/index.js';
import { smsWebhooksModule } from './sms-webhooks/index.js';
import { smsInboundModule } from './sms-inbound/index.js';
import { quotaModule } from './quota/index.js';
import { auditModule } from './audit/index.js';
import { trackingModule } from './tracking/index.js';
import { retentionModule } from './retention/index.js';
import { ipPoolsModule } from './ip-pools/index.js';
import { overviewModule } from './overview/index.js';

/**
 * Every module the api role serves, in one list: the schema's resolvers, the /v1 tables (in this
 * order in the OpenAPI document) and the routes outside both come from here. A new resource is a
 * folder with its index.ts and a line in this list; its tables, jobs and workers have a line each
 * in tables.ts, jobs.ts and workers.ts (docs/architecture.md).
 */
export const modules: readonly ModuleManifest[] = [
  operatorModule,
  tokensModule,
  domainsModule,
  identitiesModule,
  smtpUsersModule,
  usersModule,
  templatesModule,
  recipientsModule,
  suppressionsModule,
  sendingModule,
  bulkModule,
  emailLogModule,
  activityModule,
  analyticsModule,
  webhooksModule,
  inboundModule,
  verificationModule,
  blocklistModule,
  dmarcModule,
  smsNumbersModule,
  smsModule,
  smsWebhooksModule,
  smsInboundModule,
  quotaModule,
  auditModule,
  trackingModule,
  retentionModule,
  ipPoolsModule,
  overviewModule,
];

/** Every resolver of the schema, handed to buildAppSchema. */
export const resolvers: readonly Function[] = modules.flatMap((m) => m.resolvers ?? []);

/** The /v1 contract, handed to the REST surface. */
export const rest: RestContract = {
  resources: modules.flatMap((m) => m.rest ?? []),
  hidden: modules.flatMap((m) => m.hiddenOnRest ?? []),
};

/** Routes outside GraphQL and /v1 (links opened from mail, provider callbacks), handed to the HTTP server. */
export const plainRoutes: readonly PlainRoutes[] = modules.flatMap((m) => (m.routes ? [m.routes] : []));
