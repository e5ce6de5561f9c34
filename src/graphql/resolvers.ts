import { OperatorResolver } from '../modules/operator/operator.resolver.js';
import { DomainResolver } from '../modules/domains/domain.resolver.js';
import { DomainRecipientsResolver } from '../modules/recipients/domain-recipients.resolver.js';
import { IdentityResolver } from '../modules/identities/identity.resolver.js';
import { RecipientResolver } from '../modules/recipients/recipient.resolver.js';
import { SmtpUserResolver } from '../modules/smtp-users/smtp-user.resolver.js';
import { SuppressionResolver } from '../modules/suppressions/suppression.resolver.js';
import { TemplateResolver } from '../modules/templates/template.resolver.js';
import { TokenResolver } from '../modules/tokens/token.resolver.js';
import { UserResolver } from '../modules/users/user.resolver.js';
import { SendResolver } from '../modules/sending/send.resolver.js';
import { ActivityStreamResolver } from '../modules/activity/activity-stream.resolver.js';
import { BulkResolver } from '../modules/bulk/bulk.resolver.js';
import { EmailLogResolver } from '../modules/email-log/email.resolver.js';
import { CapturedEmailResolver } from '../modules/email-log/captured.resolver.js';
import { MessageResolver } from '../modules/email-log/message.resolver.js';
import { ActivityResolver } from '../modules/activity/activity.resolver.js';
import { AnalyticsResolver } from '../modules/analytics/analytics.resolver.js';
import { WebhookResolver } from '../modules/webhooks/webhook.resolver.js';
import { WebhookLogResolver } from '../modules/webhooks/log.resolver.js';
import { WebhookStreamResolver } from '../modules/webhooks/stream.resolver.js';
import { InboundResolver } from '../modules/inbound/inbound.resolver.js';
import { VerificationResolver } from '../modules/verification/verification.resolver.js';
import { VerificationListResolver } from '../modules/verification/list.resolver.js';
import { BlocklistResolver } from '../modules/blocklist/blocklist.resolver.js';
import { DmarcResolver } from '../modules/dmarc/dmarc.resolver.js';
import { SmsNumberResolver } from '../modules/sms-numbers/sms-number.resolver.js';
import { SmsSendResolver } from '../modules/sms/send.resolver.js';
import { SmsMessageResolver } from '../modules/sms/messages.resolver.js';
import { SmsActivityResolver } from '../modules/sms/activity.resolver.js';
import { SmsRecipientResolver } from '../modules/sms/recipients.resolver.js';
import { SmsWebhookResolver } from '../modules/sms-webhooks/sms-webhook.resolver.js';
import { SmsInboundResolver } from '../modules/sms-inbound/sms-inbound.resolver.js';
import { QuotaResolver } from '../modules/quota/quota.resolver.js';
import { AuditEventResolver } from '../modules/audit/audit-event.resolver.js';

/** Every resolver of the schema. */
export const resolvers = [
  OperatorResolver,
  TokenResolver,
  DomainResolver,
  DomainRecipientsResolver,
  IdentityResolver,
  SmtpUserResolver,
  UserResolver,
  TemplateResolver,
  RecipientResolver,
  SuppressionResolver,
  SendResolver,
  ActivityStreamResolver,
  BulkResolver,
  EmailLogResolver,
  CapturedEmailResolver,
  MessageResolver,
  ActivityResolver,
  AnalyticsResolver,
  WebhookResolver,
  WebhookLogResolver,
  WebhookStreamResolver,
  InboundResolver,
  VerificationResolver,
  VerificationListResolver,
  BlocklistResolver,
  DmarcResolver,
  SmsNumberResolver,
  SmsSendResolver,
  SmsMessageResolver,
  SmsActivityResolver,
  SmsRecipientResolver,
  SmsWebhookResolver,
  SmsInboundResolver,
  AuditEventResolver,
  QuotaResolver,
] as const;
