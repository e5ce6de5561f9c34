import type { RouteSpec, RouteTable } from './types.js';
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

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/** The routes of a table whose path starts with one of these segments (`/sms-messages/...` → `sms-messages`), or `except` them. */
function under(table: RouteTable, ...segments: string[]): RouteTable {
  return Object.fromEntries(Object.entries(table).filter(([, spec]) => segments.includes(firstSegment(spec.path))));
}
function except(table: RouteTable, ...segments: string[]): RouteTable {
  return Object.fromEntries(Object.entries(table).filter(([, spec]) => !segments.includes(firstSegment(spec.path))));
}

/**
 * The OpenAPI tags: one per resource, in the order of the route tables in index.ts. A table that
 * serves two resources (the email log and messages, the SMS tables) is split by path, its other
 * routes staying with the table's main resource.
 */
export const RESOURCE_TAGS: { name: string; description: string; routes: RouteTable }[] = [
  { name: 'Tokens', description: 'API tokens of the account: their scopes, domain limit and pause state.', routes: tokenRoutes },
  { name: 'Domains', description: 'Sending domains, their DNS records, verification and settings.', routes: domainRoutes },
  { name: 'Sender identities', description: 'Single sender addresses, verified by a confirmation email.', routes: identityRoutes },
  { name: 'SMTP users', description: 'SMTP relay credentials of a domain.', routes: smtpUserRoutes },
  { name: 'Users', description: 'Account users and their invitations.', routes: userRoutes },
  { name: 'Templates', description: 'Email templates.', routes: templateRoutes },
  { name: 'Recipients', description: 'Recipients of the account.', routes: recipientRoutes },
  { name: 'Suppressions', description: 'Blocklist, hard bounces, spam complaints, unsubscribes and the on-hold list.', routes: suppressionRoutes },
  { name: 'Email', description: 'Sending one email.', routes: emailRoutes },
  { name: 'Bulk email', description: 'Sending many emails in one request, and reading how that went.', routes: bulkEmailRoutes },
  { name: 'Email log', description: 'The email log: each email with its status and activity.', routes: except(emailLogRoutes, 'messages') },
  { name: 'Messages', description: 'Accepted sends.', routes: under(emailLogRoutes, 'messages') },
  { name: 'Schedules', description: 'Messages scheduled with send_at.', routes: scheduleRoutes },
  { name: 'Activity', description: 'Email events of a domain.', routes: activityRoutes },
  { name: 'Analytics', description: 'Counts of email events by date, country and user agent.', routes: analyticsRoutes },
  { name: 'Webhooks', description: 'Email webhooks, their delivery log and replays.', routes: { ...webhookRoutes, ...webhookLogRoutes } },
  { name: 'Inbound routes', description: 'Routes that receive mail and forward it to addresses or URLs.', routes: inboundRoutes },
  { name: 'Email verification', description: 'Verifying single addresses and lists of them.', routes: { ...verificationRoutes, ...verificationListRoutes } },
  { name: 'Blocklist monitoring', description: 'Watching IPs and domains on public blocklists.', routes: blocklistRoutes },
  { name: 'DMARC monitoring', description: 'DMARC aggregate reports of a domain.', routes: dmarcRoutes },
  { name: 'SMS numbers', description: 'Phone numbers the account sends SMS from.', routes: smsNumberRoutes },
  { name: 'SMS', description: 'Sending SMS.', routes: except(smsRoutes, 'sms-messages', 'sms-activity', 'sms-recipients') },
  { name: 'SMS messages', description: 'Sent SMS messages.', routes: under(smsRoutes, 'sms-messages') },
  { name: 'SMS activity', description: 'SMS events.', routes: under(smsRoutes, 'sms-activity') },
  { name: 'SMS recipients', description: 'Numbers the account has texted, and their opt-out state.', routes: under(smsRoutes, 'sms-recipients') },
  { name: 'SMS webhooks', description: 'SMS webhooks.', routes: smsWebhookRoutes },
  { name: 'SMS inbound routes', description: 'Routes that forward received SMS to a URL.', routes: smsInboundRoutes },
  { name: 'API quota', description: "The account's daily API quota.", routes: quotaRoutes },
  { name: 'Audit events', description: 'Changes to tokens, SMTP users, webhooks, SMS webhooks and users.', routes: auditRoutes },
];

/**
 * The tag of a route, by its key in the route table (`Query.domains`). A route of a table not
 * listed above is tagged by its first path segment (`/bounce-rules` → `Bounce rules`), so
 * a new table is documented before it is given its resource here.
 */
export function tagOf(key: string, spec: RouteSpec): string {
  const found = RESOURCE_TAGS.find((t) => key in t.routes);
  if (found) return found.name;
  const words = firstSegment(spec.path).replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
