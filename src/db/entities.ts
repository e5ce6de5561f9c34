import { Account } from '../modules/accounts/account.entity.js';
import { ApiToken } from '../modules/tokens/token.entity.js';
import { Domain } from '../modules/domains/domain.entity.js';
import { SenderIdentity } from '../modules/identities/identity.entity.js';
import { SmtpUser } from '../modules/smtp-users/smtp-user.entity.js';
import { AccountUser, Invite } from '../modules/users/user.entity.js';
import { Sms, SmsActivity, SmsInbound, SmsInboundMessage, SmsMessage, SmsRecipient } from '../modules/sms/sms.entity.js';
import { SmsNumber } from '../modules/sms-numbers/sms-number.entity.js';
import { DomainEvent, MaintenanceWindow } from '../modules/events/domain-event.entity.js';
import { CapturedMail } from '../modules/mail/captured-mail.entity.js';
import { Recipient } from '../modules/recipients/recipient.entity.js';
import { Template, TemplateCategory } from '../modules/templates/template.entity.js';
import { Suppression } from '../modules/suppressions/suppression.entity.js';
import { Email, IdempotencyKey, Message, MessageAttachment } from '../modules/messages/message.entity.js';
import { Activity, ActivityStat } from '../modules/activity/activity.entity.js';
import { BulkEmail } from '../modules/bulk/bulk-email.entity.js';
import { Webhook, WebhookAttempt, WebhookDelivery } from '../modules/webhooks/webhook.entity.js';
import { Inbound, InboundMessage } from '../modules/inbound/inbound.entity.js';
import { EmailVerification } from '../modules/verification/verification.entity.js';
import { EmailVerificationList } from '../modules/verification/list.entity.js';
import { BlocklistHit, BlocklistMonitor } from '../modules/blocklist/blocklist.entity.js';
import { DmarcFavorite, DmarcMonitor, DmarcReport, DmarcReportRow } from '../modules/dmarc/dmarc.entity.js';
import { AuditEvent } from '../modules/audit/audit-event.entity.js';
import { ApiQuotaCounter, ApiRateCounter } from '../modules/quota/counter.entity.js';
import { InboundForwardDestination } from '../modules/inbound/inbound.destination.js';

export const entities = [
  Account,
  ApiToken,
  Domain,
  SenderIdentity,
  SmtpUser,
  AccountUser,
  Invite,
  SmsNumber,
  SmsRecipient,
  SmsMessage,
  Sms,
  SmsActivity,
  SmsInbound,
  SmsInboundMessage,
  DomainEvent,
  MaintenanceWindow,
  CapturedMail,
  Recipient,
  TemplateCategory,
  Template,
  Suppression,
  Message,
  MessageAttachment,
  Email,
  IdempotencyKey,
  Activity,
  ActivityStat,
  BulkEmail,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  Inbound,
  InboundMessage,
  EmailVerification,
  EmailVerificationList,
  BlocklistMonitor,
  BlocklistHit,
  DmarcMonitor,
  DmarcReport,
  DmarcReportRow,
  DmarcFavorite,
  AuditEvent,
  ApiRateCounter,
  ApiQuotaCounter,
  InboundForwardDestination,
];
