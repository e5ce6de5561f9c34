import type { RouteTable } from './types.js';
import { domainRoutes } from './domains.js';
import { identityRoutes } from './identities.js';
import { recipientRoutes } from './recipients.js';
import { smtpUserRoutes } from './smtp-users.js';
import { suppressionRoutes } from './suppressions.js';
import { templateRoutes } from './templates.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './users.js';
import { bulkEmailRoutes, emailRoutes } from './email.js';
import { emailLogRoutes } from './emails.js';
import { scheduleRoutes } from './schedules.js';
import { activityRoutes } from './activity.js';
import { analyticsRoutes } from './analytics.js';
import { webhookRoutes } from './webhooks.js';
import { webhookLogRoutes } from './webhook-log.js';
import { inboundRoutes } from './inbound.js';
import { verificationRoutes } from './verification.js';
import { verificationListRoutes } from './verification-lists.js';
import { blocklistRoutes } from './blocklist.js';
import { dmarcRoutes } from './dmarc.js';
import { smsNumberRoutes } from './sms-numbers.js';
import { smsRoutes } from './sms.js';
import { smsWebhookRoutes } from './sms-webhooks.js';
import { smsInboundRoutes } from './sms-inbounds.js';
import { quotaRoutes } from './quota.js';
import { auditRoutes } from './audit.js';

/** The whole /v1 surface: every route, from the per-resource tables. */
export const routeTable: RouteTable = {
  ...tokenRoutes,
  ...domainRoutes,
  ...identityRoutes,
  ...smtpUserRoutes,
  ...userRoutes,
  ...templateRoutes,
  ...recipientRoutes,
  ...suppressionRoutes,
  ...emailRoutes,
  ...bulkEmailRoutes,
  ...emailLogRoutes,
  ...scheduleRoutes,
  ...activityRoutes,
  ...analyticsRoutes,
  ...webhookRoutes,
  ...webhookLogRoutes,
  ...inboundRoutes,
  ...verificationRoutes,
  ...verificationListRoutes,
  ...blocklistRoutes,
  ...dmarcRoutes,
  ...smsNumberRoutes,
  ...smsRoutes,
  ...smsWebhookRoutes,
  ...smsInboundRoutes,
  ...quotaRoutes,
  ...auditRoutes,
};
