import type { EntityClass } from '@mikro-orm/core';
import { Account } from './accounts/account.entity.js';
import { DomainEvent, MaintenanceWindow } from './events/domain-event.entity.js';
import { CapturedMail } from './mail/captured-mail.entity.js';
import { DeliverySite } from './mail/delivery-site.entity.js';
import { SourceAddressRow } from './ip-pools/source-address.entity.js';
import { TlsSession } from './tls-reports/tls-session.entity.js';
import { Message, MessageAttachment, Email, IdempotencyKey } from './messages/message.entity.js';
import { ApiToken } from './tokens/token.entity.js';
import { Domain } from './domains/domain.entity.js';
import { SenderIdentity } from './identities/identity.entity.js';
import { SmtpUser } from './smtp-users/smtp-user.entity.js';
import { AccountUser, Invite } from './users/user.entity.js';
import { UserSession } from './users/session.entity.js';
import { TemplateCategory, Template } from './templates/template.entity.js';
import { TemplateTranslation } from './templates/template-translation.entity.js';
import { Recipient } from './recipients/recipient.entity.js';
import { Suppression } from './suppressions/suppression.entity.js';
import { BulkEmail } from './bulk/bulk-email.entity.js';
import { Activity, ActivityStat } from './activity/activity.entity.js';
import { Webhook, WebhookDelivery, WebhookAttempt } from './webhooks/webhook.entity.js';
import { Inbound, InboundMessage } from './inbound/inbound.entity.js';
import { InboundForwardDestination } from './inbound/inbound.destination.js';
import { EmailVerification } from './verification/verification.entity.js';
import { EmailVerificationList } from './verification/list.entity.js';
import { BlocklistMonitor, BlocklistHit } from './blocklist/blocklist.entity.js';
import { DmarcMonitor, DmarcReport, DmarcReportRow, DmarcFavorite } from './dmarc/dmarc.entity.js';
import { SmsNumber } from './sms-numbers/sms-number.entity.js';
import { SmsRecipient, SmsMessage, Sms, SmsActivity, SmsInbound, SmsInboundMessage } from './sms/sms.entity.js';
import { ApiRateCounter, ApiQuotaCounter } from './quota/counter.entity.js';
import { AuditEvent } from './audit/audit-event.entity.js';
import { PlanRetention } from './retention/retention.entity.js';

/**
 * Every table of the modules, described once by its entity: every role's ORM maps them (with the
 * engines' own, src/engines/tables.ts). A resource with a table adds its entity here.
 */
export const moduleTables: readonly EntityClass<object>[] = [
  Account,
  DomainEvent,
  MaintenanceWindow,
  CapturedMail,
  DeliverySite,
  SourceAddressRow,
  TlsSession,
  Message,
  MessageAttachment,
  Email,
  IdempotencyKey,
  ApiToken,
  Domain,
  SenderIdentity,
  SmtpUser,
  AccountUser,
  Invite,
  UserSession,
  TemplateCategory,
  Template,
  TemplateTranslation,
  Recipient,
  Suppression,
  BulkEmail,
  Activity,
  ActivityStat,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  Inbound,
  InboundMessage,
  InboundForwardDestination,
  EmailVerification,
  EmailVerificationList,
  BlocklistMonitor,
  BlocklistHit,
  DmarcMonitor,
  DmarcReport,
  DmarcReportRow,
  DmarcFavorite,
  SmsNumber,
  SmsRecipient,
  SmsMessage,
  Sms,
  SmsActivity,
  SmsInbound,
  SmsInboundMessage,
  ApiRateCounter,
  ApiQuotaCounter,
  AuditEvent,
  PlanRetention,
];
