/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** ISO 8601 UTC with six fractional digits, e.g. 2026-11-22T17:04:05.123000Z */
  IsoTimestamp: { input: string; output: string; }
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
  /** UTC, YYYY-MM-DD HH:MM:SS */
  PlainTimestamp: { input: string; output: string; }
  /** A Unix timestamp (integer seconds) or an ISO 8601 date-time string. */
  SendAt: { input: unknown; output: unknown; }
};

export type AccountType = {
  __typename?: 'AccountType';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** free, starter, professional or enterprise */
  plan: Scalars['String']['output'];
  verification_credits: Scalars['Int']['output'];
};

/** The account's plan and what it has used: the console's plan and usage page. */
export type AccountUsage = {
  __typename?: 'AccountUsage';
  /** The daily API quota (as api_quota); null without tokens_full. */
  api_quota?: Maybe<ApiQuota>;
  /** free, starter, professional or enterprise */
  plan: Scalars['String']['output'];
  /** Days the mail it sends now is kept, and its logs (docs/api-behaviour.md, Retention). */
  retention_days: Scalars['Int']['output'];
  /** Email verification credits left; null without email_verification_read. */
  verification_credits?: Maybe<Scalars['Int']['output']>;
};

/** A person with access to the account. */
export type AccountUser = {
  __typename?: 'AccountUser';
  avatar?: Maybe<Scalars['String']['output']>;
  created_at: Scalars['IsoTimestamp']['output'];
  /** The domains this user may access; empty means all of them. */
  domains: Array<DomainRef>;
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  last_name: Scalars['String']['output'];
  name: Scalars['String']['output'];
  permissions: Array<Scalars['String']['output']>;
  role: Scalars['String']['output'];
  /** The templates this user may access; empty means all of them. */
  templates: Array<UserTemplateRef>;
  /** Two-factor authentication is on. Named `2fa` on /v1. */
  two_fa: Scalars['Boolean']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

/** The email an activity belongs to. text and html are the message's, not personalized. */
export type ActivityEmailType = {
  __typename?: 'ActivityEmailType';
  created_at: Scalars['PlainTimestamp']['output'];
  from: Scalars['String']['output'];
  html?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  recipient: RecipientType;
  status: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  /** Null when the message had no tags. */
  tags?: Maybe<Array<Scalars['String']['output']>>;
  text?: Maybe<Scalars['String']['output']>;
  updated_at: Scalars['PlainTimestamp']['output'];
};

/** One step in an email's life (SPEC.md "Activity"). */
export type ActivityEntry = {
  __typename?: 'ActivityEntry';
  created_at: Scalars['PlainTimestamp']['output'];
  /** Set for deferred, soft_bounced and hard_bounced: the receiver's answer read for people. */
  diagnosis?: Maybe<DeliveryDiagnosis>;
  email: ActivityEmailType;
  id: Scalars['ID']['output'];
  /** Set only when type is suppressed. */
  suppression_reason?: Maybe<Scalars['String']['output']>;
  /** Set for sent and delivered with MX delivery: the TLS policy the session went under: dane, mta-sts, or none (opportunistic STARTTLS). */
  tls_policy?: Maybe<Scalars['String']['output']>;
  type: Scalars['String']['output'];
  updated_at: Scalars['PlainTimestamp']['output'];
};

export type ActivityPage = {
  __typename?: 'ActivityPage';
  data: Array<ActivityEntry>;
  meta: ActivityPageMeta;
};

export type ActivityPageMeta = {
  __typename?: 'ActivityPageMeta';
  current_page: Scalars['Int']['output'];
  from?: Maybe<Scalars['Int']['output']>;
  per_page: Scalars['Int']['output'];
  to?: Maybe<Scalars['Int']['output']>;
};

export type AnalyticsByDate = {
  __typename?: 'AnalyticsByDate';
  date_from: Scalars['Int']['output'];
  date_to: Scalars['Int']['output'];
  /** days, weeks, months or years */
  group_by: Scalars['String']['output'];
  /** One item per unit of the range, oldest first, none left out: `date` (Unix timestamp of the unit start in `timezone`, UTC by default; weeks start on Monday) and an integer per queried event. */
  stats: Array<Scalars['JSONObject']['output']>;
};

export type AnalyticsByName = {
  __typename?: 'AnalyticsByName';
  date_from: Scalars['Int']['output'];
  date_to: Scalars['Int']['output'];
  /** Opens per value, most first; opens where it is not known are left out. */
  stats: Array<AnalyticsNameCount>;
};

export type AnalyticsNameCount = {
  __typename?: 'AnalyticsNameCount';
  count: Scalars['Int']['output'];
  name: Scalars['String']['output'];
};

/** The account's daily API quota (UTC day), over all its tokens. */
export type ApiQuota = {
  __typename?: 'ApiQuota';
  /** Requests allowed per UTC day. */
  quota: Scalars['Int']['output'];
  /** Requests left today. */
  remaining: Scalars['Int']['output'];
  /** When the quota starts again: the next UTC midnight. */
  reset: Scalars['IsoTimestamp']['output'];
};

/** An asynchronous verification of one address. */
export type AsyncEmailVerification = {
  __typename?: 'AsyncEmailVerification';
  address: Scalars['String']['output'];
  /** Why the check could not run, when status is failed */
  error?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** The verification result once checked */
  result?: Maybe<Scalars['String']['output']>;
  /** queued, completed or failed */
  status: Scalars['String']['output'];
};

export type AttachmentInput = {
  /** Base64; at most 25 MB once decoded. */
  content: Scalars['String']['input'];
  /** `inline` or `attachment` (the default). */
  disposition?: InputMaybe<Scalars['String']['input']>;
  filename: Scalars['String']['input'];
  /** Content-ID for `cid:` references; needs disposition `inline`. */
  id?: InputMaybe<Scalars['String']['input']>;
};

/** Who made a change. */
export type AuditActor = {
  __typename?: 'AuditActor';
  /** The token id, or the user an accepted invitation created; null for the operator, and for a token the caller cannot see (another domain's, or an account-wide one for a domain-limited token). */
  id?: Maybe<Scalars['ID']['output']>;
  /** The token name at the time, the invitee's email, or operator. */
  name?: Maybe<Scalars['String']['output']>;
  /** token, operator or invitee */
  type: Scalars['String']['output'];
};

export type AuditEventPage = {
  __typename?: 'AuditEventPage';
  data: Array<AuditEventType>;
  meta: PageMeta;
};

/** One recorded change to a token, SMTP user, webhook, SMS webhook or account user. */
export type AuditEventType = {
  __typename?: 'AuditEventType';
  /** e.g. token.created, token.paused, smtp_user.updated, user.invite_accepted */
  action: Scalars['String']['output'];
  actor: AuditActor;
  /** Field name → {from, to}. Values only for plain fields (names, statuses, roles, scopes, events); others, like url, by name only. Never secrets. */
  changes: Scalars['JSONObject']['output'];
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  /** The client address, when known. */
  ip?: Maybe<Scalars['String']['output']>;
  subject_id: Scalars['ID']['output'];
  /** token, smtp_user, webhook, sms_webhook, user or invite */
  subject_type: Scalars['String']['output'];
};

/** A blocklist entry: an exact address or a regular expression, for a domain or the whole account. */
export type BlocklistEntry = {
  __typename?: 'BlocklistEntry';
  created_at: Scalars['IsoTimestamp']['output'];
  /** Null for an entry of the whole account. */
  domain?: Maybe<DomainRef>;
  id: Scalars['ID']['output'];
  pattern: Scalars['String']['output'];
  /** email (an exact address) or pattern (a regular expression) */
  type: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

/** One blocklist that listed the address; open while delisted_at is null. */
export type BlocklistHit = {
  __typename?: 'BlocklistHit';
  address: Scalars['String']['output'];
  blocklist_host: Scalars['String']['output'];
  delisted_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  last_checked_at: Scalars['IsoTimestamp']['output'];
  listed_at: Scalars['IsoTimestamp']['output'];
};

/** A domain, IP or IP range checked against DNS blocklists. */
export type BlocklistMonitor = {
  __typename?: 'BlocklistMonitor';
  /** The domain, the IP, or for a range its first IP. */
  address: Scalars['String']['output'];
  blocklisted: Scalars['Boolean']['output'];
  /** Single monitor of a range only. */
  children?: Maybe<Array<BlocklistMonitor>>;
  /** Only when has_children is true. */
  children_count?: Maybe<Scalars['Int']['output']>;
  created_at: Scalars['IsoTimestamp']['output'];
  forwards: Array<BlocklistMonitorForward>;
  has_children: Scalars['Boolean']['output'];
  /** Single monitor without children only. */
  hits?: Maybe<Array<BlocklistHit>>;
  id: Scalars['ID']['output'];
  in_progress: Scalars['Boolean']['output'];
  last_check?: Maybe<Scalars['IsoTimestamp']['output']>;
  /** How many blocklists the last check asked. */
  last_checks_count: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  next_check?: Maybe<Scalars['IsoTimestamp']['output']>;
  notify: Scalars['Boolean']['output'];
  /** domain or ip */
  type: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

export type BlocklistMonitorForward = {
  __typename?: 'BlocklistMonitorForward';
  id: Scalars['ID']['output'];
  /** Webhook forwards: the signing secret of their requests. */
  secret?: Maybe<Scalars['String']['output']>;
  /** email or webhook */
  type: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type BulkEmail = {
  __typename?: 'BulkEmail';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  messages_id?: Maybe<Array<Scalars['String']['output']>>;
  /** queued, processing or completed */
  state: Scalars['String']['output'];
  /** `message.<index>` → `{to: [{email, name, reasons}]}` */
  suppressed_recipients?: Maybe<Scalars['JSONObject']['output']>;
  suppressed_recipients_count: Scalars['Int']['output'];
  total_recipients_count: Scalars['Int']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  /** `message.<index>.<field>` → messages, as a 422 of POST /v1/email */
  validation_errors?: Maybe<Scalars['JSONObject']['output']>;
  validation_errors_count: Scalars['Int']['output'];
};

export type BulkEmailAccepted = {
  __typename?: 'BulkEmailAccepted';
  bulk_email_id: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** An email the capture transport kept instead of sending (MAIL_TRANSPORT=capture). */
export type CapturedEmail = {
  __typename?: 'CapturedEmail';
  created_at: Scalars['IsoTimestamp']['output'];
  domain_id: Scalars['ID']['output'];
  /** The email in the log: GET /v1/email/{email_id} shows its content. */
  email_id: Scalars['ID']['output'];
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  message_id: Scalars['ID']['output'];
  subject: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type CapturedEmailPage = {
  __typename?: 'CapturedEmailPage';
  data: Array<CapturedEmail>;
  meta: PageMeta;
};

export type CapturedMailType = {
  __typename?: 'CapturedMailType';
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  html?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  text: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type CreatedAccount = {
  __typename?: 'CreatedAccount';
  account: AccountType;
  /** The account's first full-scope token; shown once. */
  token: CreatedToken;
};

export type CreatedDomain = {
  __typename?: 'CreatedDomain';
  can: DomainCan;
  dkim?: Maybe<Scalars['Boolean']['output']>;
  domain_settings: CreatedDomainSettingsType;
  has_not_queued_messages: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  is_dns_active: Scalars['Boolean']['output'];
  is_verified: Scalars['Boolean']['output'];
  mx?: Maybe<Scalars['Boolean']['output']>;
  name: Scalars['String']['output'];
  not_queued_messages_count: Scalars['Int']['output'];
  spf?: Maybe<Scalars['Boolean']['output']>;
  /** Sending totals; empty for a new domain. */
  totals: Array<Scalars['JSONObject']['output']>;
  tracking?: Maybe<Scalars['Boolean']['output']>;
};

export type CreatedDomainSettingsType = {
  __typename?: 'CreatedDomainSettingsType';
  custom_tracking_enabled: Scalars['Boolean']['output'];
  custom_tracking_subdomain: Scalars['String']['output'];
  ignore_duplicated_recipients: Scalars['Boolean']['output'];
  inbound_routing_enabled: Scalars['Boolean']['output'];
  inbound_routing_subdomain: Scalars['String']['output'];
  precedence_bulk: Scalars['Boolean']['output'];
  return_path_subdomain: Scalars['String']['output'];
  send_paused: Scalars['Boolean']['output'];
  track_clicks: Scalars['Boolean']['output'];
  track_content: Scalars['Boolean']['output'];
  track_opens: Scalars['Boolean']['output'];
  track_unsubscribe: Scalars['Boolean']['output'];
  track_unsubscribe_html: Scalars['String']['output'];
  track_unsubscribe_html_enabled: Scalars['Boolean']['output'];
  track_unsubscribe_plain: Scalars['String']['output'];
  track_unsubscribe_plain_enabled: Scalars['Boolean']['output'];
};

/** The creation response: the only time the password is shown. */
export type CreatedSmtpUser = {
  __typename?: 'CreatedSmtpUser';
  accessed_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  created_at: Scalars['IsoTimestamp']['output'];
  domain_id: Scalars['ID']['output'];
  enabled: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  password: Scalars['String']['output'];
  port: Scalars['Int']['output'];
  /** The SMTP host clients connect to. */
  server: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

/** The creation response: the only time the secret is shown. */
export type CreatedToken = {
  __typename?: 'CreatedToken';
  accessToken: Scalars['String']['output'];
  created_at: Scalars['PlainTimestamp']['output'];
  domain?: Maybe<DomainRef>;
  has_full: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  scopes: Array<Scalars['String']['output']>;
};

/** A receiver's refusal or deferral read for people: what happened and what to do. */
export type DeliveryDiagnosis = {
  __typename?: 'DeliveryDiagnosis';
  /** What happened and what to do, in plain words. */
  explanation: Scalars['String']['output'];
  /** gmail, microsoft, yahoo or apple, when the answer says so. */
  provider?: Maybe<Scalars['String']['output']>;
  /** connection, rate_limited, mailbox_full, unknown_recipient, policy, content or other. */
  reason: Scalars['String']['output'];
  /** The large providers' sender requirement the answer names: authentication, dmarc_alignment, one_click_unsubscribe, spam_rate, reverse_dns, tls or blocklisted. */
  requirement?: Maybe<Scalars['String']['output']>;
  /** The receiver's answer, as it came. */
  smtp_response?: Maybe<Scalars['String']['output']>;
};

export type DmarcAuthResult = {
  __typename?: 'DmarcAuthResult';
  domain: Scalars['String']['output'];
  /** pass, fail, softfail, neutral, none, temperror, permerror or policy */
  result: Scalars['String']['output'];
  /** The DKIM selector; null for SPF. */
  selector?: Maybe<Scalars['String']['output']>;
  /** spf or dkim */
  type: Scalars['String']['output'];
};

/** A sending domain's published DMARC and SPF records, checked through DNS. */
export type DmarcMonitor = {
  __typename?: 'DmarcMonitor';
  created_at: Scalars['IsoTimestamp']['output'];
  /** The TXT record found at _dmarc.<domain>; empty when none. */
  dmarc_record: Scalars['String']['output'];
  dmarc_record_checked_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  /** True when exactly one DMARC record is published and it is well-formed. */
  dmarc_valid: Scalars['Boolean']['output'];
  domain: DomainRef;
  id: Scalars['ID']['output'];
  /** Where aggregate reports for this domain go: name it in the rua tag (the default wanted record does). Not on /v1. */
  report_address: Scalars['String']['output'];
  spf_record?: Maybe<Scalars['String']['output']>;
  /** valid, invalid, multiple or not_found */
  spf_status: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  /** The record the domain should publish. */
  wanted_dmarc_record: Scalars['String']['output'];
};

/** Aggregate report figures of one source IP over the reports asked for. */
export type DmarcReportIp = {
  __typename?: 'DmarcReportIp';
  /** Always null: the bundled geo data is country-level. */
  city?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  country_code?: Maybe<Scalars['String']['output']>;
  /** The From domain most of its mail used. */
  domain: Scalars['String']['output'];
  ip_address: Scalars['String']['output'];
  /** True when the IP is a favorite; null (absent on /v1) otherwise. */
  is_favorite?: Maybe<Scalars['Boolean']['output']>;
  /** Share of the volume with a passing DKIM signature, aligned or not. */
  passed_dkim: Scalars['String']['output'];
  /** Share of the volume that passed DMARC (aligned SPF or DKIM), e.g. "66.67%". */
  passed_dmarc: Scalars['String']['output'];
  /** Share of the volume with a passing SPF check, aligned or not. */
  passed_spf: Scalars['String']['output'];
  /** Messages reported from this IP. */
  total_volume: Scalars['Int']['output'];
};

/** A report file as stored. */
export type DmarcReportReceipt = {
  __typename?: 'DmarcReportReceipt';
  created_at: Scalars['IsoTimestamp']['output'];
  date_from: Scalars['IsoTimestamp']['output'];
  date_to: Scalars['IsoTimestamp']['output'];
  /** The domain of the published policy it reports on. */
  domain: Scalars['String']['output'];
  /** True when this report had been received before; nothing new was stored. */
  duplicate: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  /** Records stored (one per source IP and outcome). */
  records: Scalars['Int']['output'];
  /** The report_id the reporter gave it. */
  report_id: Scalars['String']['output'];
  report_source: Scalars['String']['output'];
  total_volume: Scalars['Int']['output'];
};

/** One record of one aggregate report for a source IP. */
export type DmarcReportRecord = {
  __typename?: 'DmarcReportRecord';
  aligned_dkim: Scalars['Boolean']['output'];
  aligned_spf: Scalars['Boolean']['output'];
  /** What the receiver did: none, quarantine or reject. */
  applied_policy: Scalars['String']['output'];
  city?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  country_code?: Maybe<Scalars['String']['output']>;
  /** When the report was received. */
  created_at: Scalars['IsoTimestamp']['output'];
  dkim_auth: Array<DmarcAuthResult>;
  dkim_domain?: Maybe<Scalars['String']['output']>;
  /** The From domain. */
  domain: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  ip_address: Scalars['String']['output'];
  /** The IP's reverse DNS name; empty when it has none (or until it is looked up). */
  ip_domain: Scalars['String']['output'];
  override_comment?: Maybe<Scalars['String']['output']>;
  override_reason?: Maybe<Scalars['String']['output']>;
  passed_dkim: Scalars['String']['output'];
  passed_dmarc: Scalars['String']['output'];
  passed_spf: Scalars['String']['output'];
  /** The reporting organisation. */
  report_source: Scalars['String']['output'];
  spf_auth: Array<DmarcAuthResult>;
  spf_domain?: Maybe<Scalars['String']['output']>;
  total_volume: Scalars['Int']['output'];
};

export type DmarcReportSource = {
  __typename?: 'DmarcReportSource';
  /** The reporting organisation. */
  report_source: Scalars['String']['output'];
  /** Reports received from it in the period. */
  reports: Scalars['Int']['output'];
};

export type DnsCheckResult = {
  __typename?: 'DnsCheckResult';
  cname: Scalars['Boolean']['output'];
  dkim: Scalars['Boolean']['output'];
  mx: Scalars['Boolean']['output'];
  rp_cname: Scalars['Boolean']['output'];
  spf: Scalars['Boolean']['output'];
  tracking: Scalars['Boolean']['output'];
};

export type DnsRecord = {
  __typename?: 'DnsRecord';
  hostname: Scalars['String']['output'];
  type: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type DomainCan = {
  __typename?: 'DomainCan';
  manage: Scalars['Boolean']['output'];
};

export type DomainDnsRecords = {
  __typename?: 'DomainDnsRecords';
  custom_tracking: DnsRecord;
  dkim: DnsRecord;
  id: Scalars['ID']['output'];
  inbound_routing: MxDnsRecord;
  return_path: DnsRecord;
  spf: DnsRecord;
};

export type DomainListItem = {
  __typename?: 'DomainListItem';
  created_at: Scalars['PlainTimestamp']['output'];
  dkim?: Maybe<Scalars['Boolean']['output']>;
  domain_settings: DomainSettingsType;
  has_not_queued_messages: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  is_cname_active: Scalars['Boolean']['output'];
  is_cname_verified: Scalars['Boolean']['output'];
  is_dns_active: Scalars['Boolean']['output'];
  is_tracking_allowed: Scalars['Boolean']['output'];
  is_verified: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  not_queued_messages_count: Scalars['Int']['output'];
  spf?: Maybe<Scalars['Boolean']['output']>;
  tracking?: Maybe<Scalars['Boolean']['output']>;
  updated_at: Scalars['PlainTimestamp']['output'];
};

export type DomainPage = {
  __typename?: 'DomainPage';
  data: Array<DomainListItem>;
  meta: PageMeta;
};

export type DomainRef = {
  __typename?: 'DomainRef';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

export type DomainSettingsType = {
  __typename?: 'DomainSettingsType';
  custom_tracking_enabled: Scalars['Boolean']['output'];
  custom_tracking_subdomain: Scalars['String']['output'];
  ignore_duplicated_recipients: Scalars['Boolean']['output'];
  precedence_bulk: Scalars['Boolean']['output'];
  send_paused: Scalars['Boolean']['output'];
  track_clicks: Scalars['Boolean']['output'];
  track_content: Scalars['Boolean']['output'];
  track_opens: Scalars['Boolean']['output'];
  track_unsubscribe: Scalars['Boolean']['output'];
  track_unsubscribe_html: Scalars['String']['output'];
  track_unsubscribe_plain: Scalars['String']['output'];
};

export type DomainType = {
  __typename?: 'DomainType';
  created_at: Scalars['PlainTimestamp']['output'];
  dkim?: Maybe<Scalars['Boolean']['output']>;
  domain_settings: DomainSettingsType;
  has_not_queued_messages: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  is_cname_active: Scalars['Boolean']['output'];
  is_cname_verified: Scalars['Boolean']['output'];
  is_dns_active: Scalars['Boolean']['output'];
  is_tracking_allowed: Scalars['Boolean']['output'];
  is_verified: Scalars['Boolean']['output'];
  mx?: Maybe<Scalars['Boolean']['output']>;
  name: Scalars['String']['output'];
  not_queued_messages_count: Scalars['Int']['output'];
  spf?: Maybe<Scalars['Boolean']['output']>;
  tracking?: Maybe<Scalars['Boolean']['output']>;
  updated_at: Scalars['PlainTimestamp']['output'];
};

export type DomainVerification = {
  __typename?: 'DomainVerification';
  data: DnsCheckResult;
  message: Scalars['String']['output'];
};

/** One step in an email's life. */
export type EmailActivityEntry = {
  __typename?: 'EmailActivityEntry';
  created_at: Scalars['PlainTimestamp']['output'];
  id: Scalars['ID']['output'];
  /** Set only when type is suppressed. */
  suppression_reason?: Maybe<Scalars['String']['output']>;
  type: Scalars['String']['output'];
};

export type EmailAddressInput = {
  email: Scalars['String']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
};

/** The message as it went out, kept by the capture transport. */
export type EmailContent = {
  __typename?: 'EmailContent';
  html?: Maybe<Scalars['String']['output']>;
  /** The whole signed MIME message. */
  raw?: Maybe<Scalars['String']['output']>;
  text?: Maybe<Scalars['String']['output']>;
};

export type EmailHeader = {
  __typename?: 'EmailHeader';
  name: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type EmailVerificationListType = {
  __typename?: 'EmailVerificationListType';
  created_at: Scalars['IsoTimestamp']['output'];
  /** The addresses, paged; only with detailed=true */
  emails?: Maybe<VerificationListResultsPage>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** How the addresses arrived (api) */
  source: Scalars['String']['output'];
  statistics: VerificationListStatistics;
  status: VerificationListStatus;
  total: Scalars['Int']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  verification_ended?: Maybe<Scalars['IsoTimestamp']['output']>;
  verification_started?: Maybe<Scalars['IsoTimestamp']['output']>;
};

/** A webhook delivery of one of the email's events (its webhook log has the requests). */
export type EmailWebhookDelivery = {
  __typename?: 'EmailWebhookDelivery';
  attempts: Scalars['Int']['output'];
  created_at: Scalars['PlainTimestamp']['output'];
  /** The `webhook-id` header of the delivery. */
  id: Scalars['ID']['output'];
  /** The HTTP status of the last attempt; null before one got an answer. */
  last_status?: Maybe<Scalars['Int']['output']>;
  /** pending, delivered, failed or gave_up */
  state: Scalars['String']['output'];
  /** The event type sent. */
  type: Scalars['String']['output'];
  webhook_id: Scalars['ID']['output'];
  webhook_name: Scalars['String']['output'];
};

export type HeaderInput = {
  name: Scalars['String']['input'];
  value: Scalars['String']['input'];
};

/** An inbound route: mail received for its address (or inbound domain), filtered and forwarded. */
export type Inbound = {
  __typename?: 'Inbound';
  /** The route's own address; mail to it is always routed here. */
  address: Scalars['String']['output'];
  catch_filter: InboundFilter;
  catch_type: Scalars['String']['output'];
  created_at: Scalars['IsoTimestamp']['output'];
  /** Last DNS check of the domain, when domain routing is on. */
  dns_checked_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  domain: DomainRef;
  domain_enabled: Scalars['Boolean']['output'];
  enabled: Scalars['Boolean']['output'];
  /** catch_filter then match_filter, one row per rule. */
  filters: Array<InboundFilterRow>;
  forwards: Array<InboundForward>;
  id: Scalars['ID']['output'];
  inbound_domain?: Maybe<Scalars['String']['output']>;
  match_filter: InboundFilter;
  match_type: Scalars['String']['output'];
  mxValues: InboundMx;
  name: Scalars['String']['output'];
  priority: Scalars['Int']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

export type InboundCatchFilterInput = {
  /** Required (1 to 5) for catch_recipient. */
  filters?: InputMaybe<Array<InboundCatchRuleInput>>;
  /** catch_all or catch_recipient */
  type: Scalars['String']['input'];
};

export type InboundCatchRuleInput = {
  /** equal, not-equal, contains, not-contains, starts-with, ends-with, not-starts-with, not-ends-with */
  comparer: Scalars['String']['input'];
  /** Compared with the recipient's local part, or with the whole address when it holds an @. */
  value: Scalars['String']['input'];
};

export type InboundFilter = {
  __typename?: 'InboundFilter';
  filters: Array<InboundFilterRule>;
  type: Scalars['String']['output'];
};

/** One filter in the flat list clients of this API family read. */
export type InboundFilterRow = {
  __typename?: 'InboundFilterRow';
  comparer?: Maybe<Scalars['String']['output']>;
  key?: Maybe<Scalars['String']['output']>;
  type: Scalars['String']['output'];
  value?: Maybe<Scalars['String']['output']>;
};

export type InboundFilterRule = {
  __typename?: 'InboundFilterRule';
  comparer: Scalars['String']['output'];
  /** match_header only: the header name. */
  key?: Maybe<Scalars['String']['output']>;
  value: Scalars['String']['output'];
};

export type InboundForward = {
  __typename?: 'InboundForward';
  /** Email forwards: why mail may go to the address: `domain` (on a verified domain of the account), `confirmed` (its owner opened the link mailed when the route was saved), or `pending` (nothing is forwarded to it yet). Null for webhooks. GraphQL only. */
  confirmation?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** Webhook forwards: the signing secret of their requests. */
  secret?: Maybe<Scalars['String']['output']>;
  type: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type InboundForwardInput = {
  /** email or webhook */
  type: Scalars['String']['input'];
  /** An email address, or an http(s) URL that receives the signed JSON message. */
  value: Scalars['String']['input'];
};

export type InboundMatchFilterInput = {
  /** Required (1 to 5) unless match_all. */
  filters?: InputMaybe<Array<InboundMatchRuleInput>>;
  /** match_all, match_sender, match_domain or match_header */
  type: Scalars['String']['input'];
};

export type InboundMatchRuleInput = {
  /** As in catch filters. */
  comparer: Scalars['String']['input'];
  /** match_header only: the header name. */
  key?: InputMaybe<Scalars['String']['input']>;
  value: Scalars['String']['input'];
};

/** The MX record inbound_domain needs. */
export type InboundMx = {
  __typename?: 'InboundMx';
  priority: Scalars['Int']['output'];
  target: Scalars['String']['output'];
};

/** One page of inbound routes with the full pager (GET /v1/inbound). */
export type InboundPage = {
  __typename?: 'InboundPage';
  data: Array<Inbound>;
  meta: PageMeta;
};

/** An invitation to join the account, pending until accepted. */
export type Invite = {
  __typename?: 'Invite';
  created_at: Scalars['IsoTimestamp']['output'];
  data?: Maybe<Scalars['JSONObject']['output']>;
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  permissions: Array<Scalars['String']['output']>;
  requires_periodic_password_change: Scalars['Boolean']['output'];
  role: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

/** One page of invitations with the full pager (GET /v1/invites). */
export type InvitePage = {
  __typename?: 'InvitePage';
  data: Array<Invite>;
  meta: PageMeta;
};

/** The pool an account, or one of its domains, sends from. */
export type IpPoolAssignmentType = {
  __typename?: 'IpPoolAssignmentType';
  account_id: Scalars['ID']['output'];
  domain_id?: Maybe<Scalars['ID']['output']>;
  /** null: none of its own (a domain: its account's; an account: `default`). */
  pool?: Maybe<Scalars['String']['output']>;
};

/** A pool of source addresses (IP_POOLS). */
export type IpPoolType = {
  __typename?: 'IpPoolType';
  addresses: Array<SourceAddressType>;
  name: Scalars['String']['output'];
};

export type LoggedEmail = {
  __typename?: 'LoggedEmail';
  /** First click. */
  clicked_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  created_at: Scalars['PlainTimestamp']['output'];
  domain_id: Scalars['ID']['output'];
  from: Scalars['String']['output'];
  from_name?: Maybe<Scalars['String']['output']>;
  /** The custom headers of the send. */
  headers?: Maybe<Array<EmailHeader>>;
  /** Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise. */
  html?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** opened, clicked, unsubscribed: what the recipient has done. */
  interaction: Array<Scalars['String']['output']>;
  /** The x-message-id of the send it belongs to. */
  message_id: Scalars['ID']['output'];
  /** First open. */
  opened_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  /** queued, scheduled, paused, deferred, sent, delivered, soft_bounced, hard_bounced, suppressed, rejected or cancelled */
  status: Scalars['String']['output'];
  /** After personalization. */
  subject: Scalars['String']['output'];
  /** Why it was not sent, when status is suppressed. */
  suppression_reason?: Maybe<Scalars['String']['output']>;
  /** Null when the message had no tags. */
  tags?: Maybe<Array<Scalars['String']['output']>>;
  template_id?: Maybe<Scalars['ID']['output']>;
  /** Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise. */
  text?: Maybe<Scalars['String']['output']>;
  /** The recipient address. */
  to: Scalars['String']['output'];
  to_name?: Maybe<Scalars['String']['output']>;
  unsubscribed_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  updated_at: Scalars['PlainTimestamp']['output'];
};

export type LoggedEmailDetail = {
  __typename?: 'LoggedEmailDetail';
  /** Oldest first. */
  activity: Array<EmailActivityEntry>;
  /** First click. */
  clicked_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  /** Null unless the capture transport stored the message, and once delivered with track_content off. */
  content?: Maybe<EmailContent>;
  created_at: Scalars['PlainTimestamp']['output'];
  /** Set while the email is deferred or once it bounced: its last answer read for people; GraphQL only. */
  diagnosis?: Maybe<DeliveryDiagnosis>;
  domain_id: Scalars['ID']['output'];
  from: Scalars['String']['output'];
  from_name?: Maybe<Scalars['String']['output']>;
  /** The custom headers of the send. */
  headers?: Maybe<Array<EmailHeader>>;
  /** Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise. */
  html?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** opened, clicked, unsubscribed: what the recipient has done. */
  interaction: Array<Scalars['String']['output']>;
  /** The receiving server's last answer, or the error, for this email (a bounce's diagnostic); GraphQL only. */
  last_response?: Maybe<Scalars['String']['output']>;
  /** The x-message-id of the send it belongs to. */
  message_id: Scalars['ID']['output'];
  /** First open. */
  opened_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  recipient: RecipientType;
  /** queued, scheduled, paused, deferred, sent, delivered, soft_bounced, hard_bounced, suppressed, rejected or cancelled */
  status: Scalars['String']['output'];
  /** After personalization. */
  subject: Scalars['String']['output'];
  /** Why it was not sent, when status is suppressed. */
  suppression_reason?: Maybe<Scalars['String']['output']>;
  /** Null when the message had no tags. */
  tags?: Maybe<Array<Scalars['String']['output']>>;
  template_id?: Maybe<Scalars['ID']['output']>;
  /** Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise. */
  text?: Maybe<Scalars['String']['output']>;
  /** The recipient address. */
  to: Scalars['String']['output'];
  to_name?: Maybe<Scalars['String']['output']>;
  unsubscribed_at?: Maybe<Scalars['PlainTimestamp']['output']>;
  updated_at: Scalars['PlainTimestamp']['output'];
  /** The webhook deliveries of its events, newest first, at most 100; null without the webhooks_full scope. */
  webhook_deliveries?: Maybe<Array<EmailWebhookDelivery>>;
};

export type MaintenanceWindowType = {
  __typename?: 'MaintenanceWindowType';
  ended_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  id: Scalars['ID']['output'];
  note: Scalars['String']['output'];
  started_at: Scalars['IsoTimestamp']['output'];
};

export type MessageDetail = {
  __typename?: 'MessageDetail';
  created_at: Scalars['IsoTimestamp']['output'];
  domain: DomainType;
  /** One per `to` recipient, in the order of the request. */
  emails: Array<LoggedEmail>;
  id: Scalars['ID']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

export type MessageListItem = {
  __typename?: 'MessageListItem';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
};

export type MessageSchedule = {
  __typename?: 'MessageSchedule';
  created_at: Scalars['IsoTimestamp']['output'];
  message_id: Scalars['ID']['output'];
  send_at: Scalars['IsoTimestamp']['output'];
  /** scheduled, sent or error */
  status: Scalars['String']['output'];
  /** Why a schedule is in error. */
  status_message?: Maybe<Scalars['String']['output']>;
  subject: Scalars['String']['output'];
};

export type MessageScheduleDetail = {
  __typename?: 'MessageScheduleDetail';
  created_at: Scalars['IsoTimestamp']['output'];
  domain: DomainRef;
  message: ScheduledMessageRef;
  message_id: Scalars['ID']['output'];
  send_at: Scalars['IsoTimestamp']['output'];
  /** scheduled, sent or error */
  status: Scalars['String']['output'];
  /** Why a schedule is in error. */
  status_message?: Maybe<Scalars['String']['output']>;
  subject: Scalars['String']['output'];
};

/** One page of message schedules with the full pager (GET /v1/message-schedules). */
export type MessageSchedulePage = {
  __typename?: 'MessageSchedulePage';
  data: Array<MessageSchedule>;
  meta: PageMeta;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Marks a source IP of the monitor's reports as a favorite. */
  add_dmarc_favorite: Scalars['Boolean']['output'];
  /** Adds a chunk of addresses (up to 10,000) to a list created with uploading: true. */
  add_email_verification_list_emails: EmailVerificationListType;
  /** Entries added, or already there. */
  add_hard_bounces: Array<SuppressionEntry>;
  /** Entries added, or already there (an expired hold starts anew). */
  add_on_hold_list: Array<OnHoldEntry>;
  /** Entries added, or already there. */
  add_spam_complaints: Array<SuppressionEntry>;
  /** Entries added, or already there. */
  add_to_blocklist: Array<BlocklistEntry>;
  /** Entries added, or already there. */
  add_unsubscribes: Array<SuppressionEntry>;
  /** Cancels a list; credits of addresses not verified are refunded. */
  cancel_email_verification_list: EmailVerificationListType;
  /** A CIDR block creates one parent and one child per IP. */
  create_blocklist_monitor: BlocklistMonitor;
  /** Starts monitoring a verified domain; its DNS records are checked at once. */
  create_dmarc_monitor: DmarcMonitor;
  create_domain: CreatedDomain;
  /** Stores a list in status created (or uploading, with uploading: true); start it with verify_email_verification_list. */
  create_email_verification_list: EmailVerificationListType;
  /** The route gets its own address; each webhook forward its own signing secret. */
  create_inbound: Inbound;
  /** Sends a confirmation mail to the address. */
  create_sender_identity: SenderIdentity;
  /** The route gets its own signing secret. */
  create_sms_inbound: SmsInbound;
  /** Sends the signed webhook.test request first; a non-2xx answer is a 422 on url. */
  create_sms_webhook: SmsWebhook;
  /** The password is returned this once; only its hash is stored. */
  create_smtp_user: CreatedSmtpUser;
  /** The answer has category and domain null, as SPEC.md says. */
  create_template: Template;
  create_template_category: TemplateCategory;
  /** One translation per language; sends naming the language use it. */
  create_template_translation: TemplateTranslation;
  /** The secret (accessToken) is returned this once. */
  create_token: CreatedToken;
  /** Sends the signed webhook.test request first; a non-2xx answer is a 422 on url. */
  create_webhook: Webhook;
  /** Deleting a range removes its children. */
  delete_blocklist_monitor: Scalars['Boolean']['output'];
  delete_dmarc_monitor: Scalars['Boolean']['output'];
  delete_domain: Scalars['Boolean']['output'];
  delete_from_blocklist: Scalars['Boolean']['output'];
  delete_hard_bounces: Scalars['Boolean']['output'];
  delete_inbound: Scalars['Boolean']['output'];
  delete_invite: Scalars['Boolean']['output'];
  /** Cancels a scheduled send that has not gone out yet. */
  delete_message_schedule: Scalars['Boolean']['output'];
  delete_on_hold_list: Scalars['Boolean']['output'];
  delete_recipient: Scalars['Boolean']['output'];
  delete_sender_identity: Scalars['Boolean']['output'];
  delete_sender_identity_by_email: Scalars['Boolean']['output'];
  delete_sms_inbound: Scalars['Boolean']['output'];
  /** Releases the number, with its messages, texts and activity. */
  delete_sms_number: Scalars['Boolean']['output'];
  delete_sms_webhook: Scalars['Boolean']['output'];
  delete_smtp_user: Scalars['Boolean']['output'];
  delete_spam_complaints: Scalars['Boolean']['output'];
  delete_template: Scalars['Boolean']['output'];
  /** Its templates stay, without a category. */
  delete_template_category: Scalars['Boolean']['output'];
  /** Sends naming the language get the template's own content again. */
  delete_template_translation: Scalars['Boolean']['output'];
  delete_token: Scalars['Boolean']['output'];
  delete_unsubscribes: Scalars['Boolean']['output'];
  /** Removes a user; the last admin of the account stays. */
  delete_user: Scalars['Boolean']['output'];
  delete_webhook: Scalars['Boolean']['output'];
  /** Ends the upload of an uploading list: it moves to created, ready to start. */
  finish_email_verification_list_upload: EmailVerificationListType;
  /** Invites a person by email; they join by opening the emailed link. */
  invite_user: Invite;
  operator_add_verification_credits: AccountType;
  /** Hands a provider-assigned number to an account. */
  operator_assign_sms_number: SmsNumberType;
  operator_create_account: CreatedAccount;
  /** Records maintenance.end for every account. */
  operator_end_maintenance: MaintenanceWindowType;
  /** Gives an account, or with `domain_id` one of its domains, the pool its mail leaves from; `pool: null` takes it back (a domain then uses its account's, an account `default`). */
  operator_set_ip_pool: IpPoolAssignmentType;
  operator_set_plan: AccountType;
  /** Sets a plan's retention days; `days: null` returns it to the environment's. */
  operator_set_retention: PlanRetentionType;
  /** Records maintenance.start for every account. */
  operator_start_maintenance: MaintenanceWindowType;
  /** Pauses a verifying list; verify_email_verification_list resumes it. */
  pause_email_verification_list: EmailVerificationListType;
  remove_dmarc_favorite: Scalars['Boolean']['output'];
  /** Sends again the failed and given-up deliveries created between since and until. */
  replay_webhook: WebhookReplay;
  /** Sends the invitation email again. */
  resend_invite: Invite;
  /** Sends the confirmation mail again; refused once verified. */
  resend_sender_identity: SenderIdentity;
  /** Sends one failed or given-up delivery again, same id and body, from the start of the retry schedule (GraphQL only). */
  retry_webhook_delivery: WebhookDeliveryDetail;
  /** A new signing secret, used from the next request on; the old one no longer signs (GraphQL only). */
  rotate_webhook_secret: Webhook;
  /** Queues many sends at once (POST /v1/bulk-email); each item is a POST /v1/email body. */
  send_bulk_email: BulkEmailAccepted;
  /** Accepts one email for sending (POST /v1/email). An Idempotency-Key request header makes retries safe for 24 h. */
  send_email: SendEmailResult;
  /** Accepts one SMS send (POST /v1/sms): one text per recipient, sent in the background. */
  send_sms: SendSmsResult;
  /** In the SMS sandbox (SMS_PROVIDER=capture) only: a text arrives at one of the account's numbers as if `from` sent it, and its routes forward it. */
  simulate_sms_inbound: SimulatedSmsInbound;
  update_blocklist_monitor: BlocklistMonitor;
  update_dmarc_monitor: DmarcMonitor;
  /** Changes any subset of domain_settings. */
  update_domain_settings: DomainType;
  /** Only the fields sent change; forwards sent again unchanged keep their id and secret. */
  update_inbound: Inbound;
  update_sender_identity: SenderIdentity;
  update_sender_identity_by_email: SenderIdentity;
  /** Only the fields sent change; filter: null removes the filter. */
  update_sms_inbound: SmsInbound;
  /** Pause or unpause; unpausing sends the texts that waited. */
  update_sms_number: SmsNumberType;
  /** Opt a number out (its texts are then skipped) or back in. */
  update_sms_recipient: SmsRecipientDetail;
  /** A new url, or enabled turned on, sends the webhook.test request first. enabled=true also lifts an automatic pause. */
  update_sms_webhook: SmsWebhook;
  /** Rename, enable or disable. */
  update_smtp_user: SmtpUser;
  /** Only templates created through the API can be updated. */
  update_template: Template;
  update_template_translation: TemplateTranslation;
  /** Rename, pause or unpause. */
  update_token: Token;
  /** Pause or unpause. */
  update_token_settings: Token;
  /** Changes what a user may do and reach. */
  update_user: AccountUser;
  /** A new url, or enabled turned on, sends the webhook.test request first. enabled=true also lifts an automatic pause. */
  update_webhook: Webhook;
  /** Stores an aggregate report file, as if it had come to the report address. */
  upload_dmarc_report: DmarcReportReceipt;
  /** Queries DNS now and stores what it finds. */
  verify_domain: DomainVerification;
  /** Verifies one address now (costs 1 verification credit unless the result is failed). */
  verify_email: SingleEmailVerification;
  /** Queues a verification (1 credit, refunded if it ends failed); read it with async_email_verification. */
  verify_email_async: AsyncEmailVerification;
  /** Starts (reserving one credit per address; failed results are refunded) or resumes a paused list. */
  verify_email_verification_list: VerificationListMessage;
};


export type MutationAdd_Dmarc_FavoriteArgs = {
  ip: Scalars['String']['input'];
  monitor_id: Scalars['ID']['input'];
};


export type MutationAdd_Email_Verification_List_EmailsArgs = {
  email_verification_id: Scalars['ID']['input'];
  emails: Array<Scalars['String']['input']>;
};


export type MutationAdd_Hard_BouncesArgs = {
  domain_id: Scalars['ID']['input'];
  recipients: Array<Scalars['String']['input']>;
};


export type MutationAdd_On_Hold_ListArgs = {
  domain_id: Scalars['ID']['input'];
  on_hold_until?: InputMaybe<Scalars['String']['input']>;
  recipients: Array<Scalars['String']['input']>;
};


export type MutationAdd_Spam_ComplaintsArgs = {
  domain_id: Scalars['ID']['input'];
  recipients: Array<Scalars['String']['input']>;
};


export type MutationAdd_To_BlocklistArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  patterns?: InputMaybe<Array<Scalars['String']['input']>>;
  recipients?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationAdd_UnsubscribesArgs = {
  domain_id: Scalars['ID']['input'];
  recipients: Array<Scalars['String']['input']>;
};


export type MutationCancel_Email_Verification_ListArgs = {
  email_verification_id: Scalars['ID']['input'];
};


export type MutationCreate_Blocklist_MonitorArgs = {
  address: Scalars['String']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  notify?: InputMaybe<Scalars['Boolean']['input']>;
  notify_address?: InputMaybe<Scalars['String']['input']>;
  notify_email?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreate_Dmarc_MonitorArgs = {
  domain_id: Scalars['ID']['input'];
};


export type MutationCreate_DomainArgs = {
  custom_tracking_subdomain?: InputMaybe<Scalars['String']['input']>;
  inbound_routing_subdomain?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  return_path_subdomain?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreate_Email_Verification_ListArgs = {
  emails: Array<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  uploading?: Scalars['Boolean']['input'];
};


export type MutationCreate_InboundArgs = {
  catch_filter?: InputMaybe<InboundCatchFilterInput>;
  catch_type?: InputMaybe<Scalars['String']['input']>;
  domain_enabled?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  forwards?: InputMaybe<Array<InboundForwardInput>>;
  inbound_domain?: InputMaybe<Scalars['String']['input']>;
  inbound_priority?: InputMaybe<Scalars['Int']['input']>;
  match_filter?: InputMaybe<InboundMatchFilterInput>;
  match_type?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
};


export type MutationCreate_Sender_IdentityArgs = {
  add_note?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  email: Scalars['String']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  personal_note?: InputMaybe<Scalars['String']['input']>;
  reply_to_email?: InputMaybe<Scalars['String']['input']>;
  reply_to_name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreate_Sms_InboundArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  filter?: InputMaybe<SmsInboundFilterInput>;
  forward_url: Scalars['String']['input'];
  name: Scalars['String']['input'];
  sms_number_id: Scalars['ID']['input'];
};


export type MutationCreate_Sms_WebhookArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  events: Array<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  sms_number_id: Scalars['ID']['input'];
  url: Scalars['String']['input'];
};


export type MutationCreate_Smtp_UserArgs = {
  domain_id: Scalars['ID']['input'];
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  name: Scalars['String']['input'];
};


export type MutationCreate_TemplateArgs = {
  auto_generate?: InputMaybe<Scalars['Boolean']['input']>;
  categories?: InputMaybe<Array<Scalars['String']['input']>>;
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  from_email?: InputMaybe<Scalars['String']['input']>;
  from_name?: InputMaybe<Scalars['String']['input']>;
  html: Scalars['String']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  subject?: InputMaybe<Scalars['String']['input']>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  text?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreate_Template_CategoryArgs = {
  name: Scalars['String']['input'];
};


export type MutationCreate_Template_TranslationArgs = {
  auto_generate?: InputMaybe<Scalars['Boolean']['input']>;
  html: Scalars['String']['input'];
  language: Scalars['String']['input'];
  subject?: InputMaybe<Scalars['String']['input']>;
  template_id: Scalars['ID']['input'];
  text?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreate_TokenArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  name: Scalars['String']['input'];
  scopes: Array<Scalars['String']['input']>;
};


export type MutationCreate_WebhookArgs = {
  domain_id: Scalars['ID']['input'];
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  events: Array<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  url: Scalars['String']['input'];
};


export type MutationDelete_Blocklist_MonitorArgs = {
  monitor_id: Scalars['ID']['input'];
};


export type MutationDelete_Dmarc_MonitorArgs = {
  monitor_id: Scalars['ID']['input'];
};


export type MutationDelete_DomainArgs = {
  domain_id: Scalars['ID']['input'];
};


export type MutationDelete_From_BlocklistArgs = {
  all?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};


export type MutationDelete_Hard_BouncesArgs = {
  all?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};


export type MutationDelete_InboundArgs = {
  inbound_id: Scalars['ID']['input'];
};


export type MutationDelete_InviteArgs = {
  invite_id: Scalars['ID']['input'];
};


export type MutationDelete_Message_ScheduleArgs = {
  message_id: Scalars['ID']['input'];
};


export type MutationDelete_On_Hold_ListArgs = {
  all?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};


export type MutationDelete_RecipientArgs = {
  recipient_id: Scalars['ID']['input'];
};


export type MutationDelete_Sender_IdentityArgs = {
  identity_id: Scalars['ID']['input'];
};


export type MutationDelete_Sender_Identity_By_EmailArgs = {
  email: Scalars['String']['input'];
};


export type MutationDelete_Sms_InboundArgs = {
  sms_inbound_id: Scalars['ID']['input'];
};


export type MutationDelete_Sms_NumberArgs = {
  sms_number_id: Scalars['ID']['input'];
};


export type MutationDelete_Sms_WebhookArgs = {
  sms_webhook_id: Scalars['ID']['input'];
};


export type MutationDelete_Smtp_UserArgs = {
  domain_id: Scalars['ID']['input'];
  smtp_user_id: Scalars['ID']['input'];
};


export type MutationDelete_Spam_ComplaintsArgs = {
  all?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};


export type MutationDelete_TemplateArgs = {
  template_id: Scalars['ID']['input'];
};


export type MutationDelete_Template_CategoryArgs = {
  category_id: Scalars['ID']['input'];
};


export type MutationDelete_Template_TranslationArgs = {
  language: Scalars['String']['input'];
  template_id: Scalars['ID']['input'];
};


export type MutationDelete_TokenArgs = {
  token_id: Scalars['ID']['input'];
};


export type MutationDelete_UnsubscribesArgs = {
  all?: InputMaybe<Scalars['Boolean']['input']>;
  domain_id: Scalars['ID']['input'];
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};


export type MutationDelete_UserArgs = {
  user_id: Scalars['ID']['input'];
};


export type MutationDelete_WebhookArgs = {
  webhook_id: Scalars['ID']['input'];
};


export type MutationFinish_Email_Verification_List_UploadArgs = {
  email_verification_id: Scalars['ID']['input'];
};


export type MutationInvite_UserArgs = {
  domains?: InputMaybe<Array<Scalars['String']['input']>>;
  email: Scalars['String']['input'];
  permissions?: InputMaybe<Array<Scalars['String']['input']>>;
  requires_periodic_password_change?: InputMaybe<Scalars['Boolean']['input']>;
  role: Scalars['String']['input'];
  templates?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationOperator_Add_Verification_CreditsArgs = {
  account_id: Scalars['ID']['input'];
  credits: Scalars['Int']['input'];
};


export type MutationOperator_Assign_Sms_NumberArgs = {
  account_id: Scalars['ID']['input'];
  telephone_number: Scalars['String']['input'];
};


export type MutationOperator_Create_AccountArgs = {
  admin_email?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
};


export type MutationOperator_End_MaintenanceArgs = {
  id: Scalars['ID']['input'];
};


export type MutationOperator_Set_Ip_PoolArgs = {
  account_id: Scalars['ID']['input'];
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  pool?: InputMaybe<Scalars['String']['input']>;
};


export type MutationOperator_Set_PlanArgs = {
  account_id: Scalars['ID']['input'];
  plan: Scalars['String']['input'];
};


export type MutationOperator_Set_RetentionArgs = {
  days?: InputMaybe<Scalars['Int']['input']>;
  plan: Scalars['String']['input'];
};


export type MutationOperator_Start_MaintenanceArgs = {
  note?: InputMaybe<Scalars['String']['input']>;
};


export type MutationPause_Email_Verification_ListArgs = {
  email_verification_id: Scalars['ID']['input'];
};


export type MutationRemove_Dmarc_FavoriteArgs = {
  ip: Scalars['String']['input'];
  monitor_id: Scalars['ID']['input'];
};


export type MutationReplay_WebhookArgs = {
  since: Scalars['String']['input'];
  until?: InputMaybe<Scalars['String']['input']>;
  webhook_id: Scalars['ID']['input'];
};


export type MutationResend_InviteArgs = {
  invite_id: Scalars['ID']['input'];
};


export type MutationResend_Sender_IdentityArgs = {
  identity_id: Scalars['ID']['input'];
};


export type MutationRetry_Webhook_DeliveryArgs = {
  delivery_id: Scalars['ID']['input'];
};


export type MutationRotate_Webhook_SecretArgs = {
  webhook_id: Scalars['ID']['input'];
};


export type MutationSend_Bulk_EmailArgs = {
  emails: Array<Scalars['JSONObject']['input']>;
};


export type MutationSend_EmailArgs = {
  attachments?: InputMaybe<Array<AttachmentInput>>;
  bcc?: InputMaybe<Array<EmailAddressInput>>;
  cc?: InputMaybe<Array<EmailAddressInput>>;
  from?: InputMaybe<EmailAddressInput>;
  headers?: InputMaybe<Array<HeaderInput>>;
  html?: InputMaybe<Scalars['String']['input']>;
  in_reply_to?: InputMaybe<Scalars['String']['input']>;
  language?: InputMaybe<Scalars['String']['input']>;
  list_unsubscribe?: InputMaybe<Scalars['String']['input']>;
  personalization?: InputMaybe<Array<PersonalizationInput>>;
  precedence_bulk?: InputMaybe<Scalars['Boolean']['input']>;
  references?: InputMaybe<Array<Scalars['String']['input']>>;
  reply_to?: InputMaybe<EmailAddressInput>;
  send_at?: InputMaybe<Scalars['SendAt']['input']>;
  settings?: InputMaybe<Scalars['JSONObject']['input']>;
  subject?: InputMaybe<Scalars['String']['input']>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  template_id?: InputMaybe<Scalars['String']['input']>;
  text?: InputMaybe<Scalars['String']['input']>;
  to: Array<EmailAddressInput>;
};


export type MutationSend_SmsArgs = {
  from: Scalars['String']['input'];
  personalization?: InputMaybe<Array<SmsPersonalizationInput>>;
  text: Scalars['String']['input'];
  to: Array<Scalars['String']['input']>;
};


export type MutationSimulate_Sms_InboundArgs = {
  from: Scalars['String']['input'];
  sms_number_id: Scalars['ID']['input'];
  text: Scalars['String']['input'];
};


export type MutationUpdate_Blocklist_MonitorArgs = {
  monitor_id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  notify?: InputMaybe<Scalars['Boolean']['input']>;
  notify_address?: InputMaybe<Scalars['String']['input']>;
  notify_email?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Dmarc_MonitorArgs = {
  monitor_id: Scalars['ID']['input'];
  wanted_dmarc_record: Scalars['String']['input'];
};


export type MutationUpdate_Domain_SettingsArgs = {
  custom_tracking_enabled?: InputMaybe<Scalars['Boolean']['input']>;
  custom_tracking_subdomain?: InputMaybe<Scalars['String']['input']>;
  domain_id: Scalars['ID']['input'];
  ignore_duplicated_recipients?: InputMaybe<Scalars['Boolean']['input']>;
  inbound_routing_enabled?: InputMaybe<Scalars['Boolean']['input']>;
  inbound_routing_subdomain?: InputMaybe<Scalars['String']['input']>;
  precedence_bulk?: InputMaybe<Scalars['Boolean']['input']>;
  return_path_subdomain?: InputMaybe<Scalars['String']['input']>;
  send_paused?: InputMaybe<Scalars['Boolean']['input']>;
  track_clicks?: InputMaybe<Scalars['Boolean']['input']>;
  track_content?: InputMaybe<Scalars['Boolean']['input']>;
  track_opens?: InputMaybe<Scalars['Boolean']['input']>;
  track_unsubscribe?: InputMaybe<Scalars['Boolean']['input']>;
  track_unsubscribe_html?: InputMaybe<Scalars['String']['input']>;
  track_unsubscribe_html_enabled?: InputMaybe<Scalars['Boolean']['input']>;
  track_unsubscribe_plain?: InputMaybe<Scalars['String']['input']>;
  track_unsubscribe_plain_enabled?: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationUpdate_InboundArgs = {
  catch_filter?: InputMaybe<InboundCatchFilterInput>;
  catch_type?: InputMaybe<Scalars['String']['input']>;
  domain_enabled?: InputMaybe<Scalars['Boolean']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  forwards?: InputMaybe<Array<InboundForwardInput>>;
  inbound_domain?: InputMaybe<Scalars['String']['input']>;
  inbound_id: Scalars['ID']['input'];
  inbound_priority?: InputMaybe<Scalars['Int']['input']>;
  match_filter?: InputMaybe<InboundMatchFilterInput>;
  match_type?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Sender_IdentityArgs = {
  add_note?: InputMaybe<Scalars['Boolean']['input']>;
  identity_id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  personal_note?: InputMaybe<Scalars['String']['input']>;
  reply_to_email?: InputMaybe<Scalars['String']['input']>;
  reply_to_name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Sender_Identity_By_EmailArgs = {
  add_note?: InputMaybe<Scalars['Boolean']['input']>;
  email: Scalars['String']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  personal_note?: InputMaybe<Scalars['String']['input']>;
  reply_to_email?: InputMaybe<Scalars['String']['input']>;
  reply_to_name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Sms_InboundArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  filter?: InputMaybe<SmsInboundFilterInput>;
  forward_url?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  sms_inbound_id: Scalars['ID']['input'];
  sms_number_id?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationUpdate_Sms_NumberArgs = {
  paused: Scalars['Boolean']['input'];
  sms_number_id: Scalars['ID']['input'];
};


export type MutationUpdate_Sms_RecipientArgs = {
  sms_recipient_id: Scalars['ID']['input'];
  status: Scalars['String']['input'];
};


export type MutationUpdate_Sms_WebhookArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  events?: InputMaybe<Array<Scalars['String']['input']>>;
  name?: InputMaybe<Scalars['String']['input']>;
  sms_webhook_id: Scalars['ID']['input'];
  url?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Smtp_UserArgs = {
  domain_id: Scalars['ID']['input'];
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  smtp_user_id: Scalars['ID']['input'];
};


export type MutationUpdate_TemplateArgs = {
  auto_generate?: InputMaybe<Scalars['Boolean']['input']>;
  categories?: InputMaybe<Array<Scalars['String']['input']>>;
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  from_email?: InputMaybe<Scalars['String']['input']>;
  from_name?: InputMaybe<Scalars['String']['input']>;
  html?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  subject?: InputMaybe<Scalars['String']['input']>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  template_id: Scalars['ID']['input'];
  text?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_Template_TranslationArgs = {
  auto_generate?: InputMaybe<Scalars['Boolean']['input']>;
  html?: InputMaybe<Scalars['String']['input']>;
  language: Scalars['String']['input'];
  subject?: InputMaybe<Scalars['String']['input']>;
  template_id: Scalars['ID']['input'];
  text?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdate_TokenArgs = {
  name?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Scalars['String']['input']>;
  token_id: Scalars['ID']['input'];
};


export type MutationUpdate_Token_SettingsArgs = {
  status: Scalars['String']['input'];
  token_id: Scalars['ID']['input'];
};


export type MutationUpdate_UserArgs = {
  domains?: InputMaybe<Array<Scalars['String']['input']>>;
  permissions?: InputMaybe<Array<Scalars['String']['input']>>;
  requires_periodic_password_change?: InputMaybe<Scalars['Boolean']['input']>;
  role: Scalars['String']['input'];
  templates?: InputMaybe<Array<Scalars['String']['input']>>;
  user_id: Scalars['ID']['input'];
};


export type MutationUpdate_WebhookArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  events?: InputMaybe<Array<Scalars['String']['input']>>;
  name?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
  webhook_id: Scalars['ID']['input'];
};


export type MutationUpload_Dmarc_ReportArgs = {
  monitor_id: Scalars['ID']['input'];
  report: Scalars['String']['input'];
};


export type MutationVerify_DomainArgs = {
  domain_id: Scalars['ID']['input'];
};


export type MutationVerify_EmailArgs = {
  email: Scalars['String']['input'];
};


export type MutationVerify_Email_AsyncArgs = {
  email: Scalars['String']['input'];
};


export type MutationVerify_Email_Verification_ListArgs = {
  email_verification_id: Scalars['ID']['input'];
};

export type MxDnsRecord = {
  __typename?: 'MxDnsRecord';
  hostname: Scalars['String']['output'];
  priority: Scalars['Int']['output'];
  type: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

/** An on-hold entry: no mail goes to the recipient until on_hold_until. */
export type OnHoldEntry = {
  __typename?: 'OnHoldEntry';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  on_hold_until: Scalars['IsoTimestamp']['output'];
  reason?: Maybe<Scalars['String']['output']>;
  recipient: RecipientType;
};

/** What an account's sending looks like now: the console's landing page. Counts cover the caller's domains. */
export type Overview = {
  __typename?: 'Overview';
  /** Mail is kept by the capture transport (MAIL_TRANSPORT=capture) and never leaves the machine. */
  sandbox: Scalars['Boolean']['output'];
  setup: Array<SetupStep>;
  /** Emails accepted in the last 3 days still to be delivered; null without activity_read. */
  waiting?: Maybe<WaitingEmails>;
  /** Webhooks paused, or with a failed delivery attempt in the last 24 hours; null without webhooks_full. */
  webhooks_failing?: Maybe<Scalars['Int']['output']>;
};

export type PageMeta = {
  __typename?: 'PageMeta';
  current_page: Scalars['Int']['output'];
  from?: Maybe<Scalars['Int']['output']>;
  last_page: Scalars['Int']['output'];
  per_page: Scalars['Int']['output'];
  to?: Maybe<Scalars['Int']['output']>;
  total: Scalars['Int']['output'];
};

export type PersonalizationInput = {
  data: Scalars['JSONObject']['input'];
  email: Scalars['String']['input'];
};

/** A plan's retention: how many days the mail and logs of its accounts are kept. */
export type PlanRetentionType = {
  __typename?: 'PlanRetentionType';
  /** The days in force: the operator's, else the environment's. */
  days: Scalars['Int']['output'];
  /** The environment's days (`RETENTION_DAYS_<PLAN>`). */
  default_days: Scalars['Int']['output'];
  /** Whether the operator set the days in force (operator_set_retention). */
  overridden: Scalars['Boolean']['output'];
  plan: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** A domain's activity in a time range, newest first (GET /v1/activity/{domain_id}). */
  activities: ActivityPage;
  activity: ActivityEntry;
  /** Opens per country (two-letter code). */
  analytics_country: AnalyticsByName;
  /** Event counts per day, week, month or year (GET /v1/analytics/date). */
  analytics_date: AnalyticsByDate;
  /** Opens per browser or mail client with its operating system when known, e.g. "Chrome (Windows)". */
  analytics_ua_name: AnalyticsByName;
  /** Opens per reading environment: webmail, mobile or desktop. */
  analytics_ua_type: AnalyticsByName;
  /** The daily API quota. Asking for it does not use it up. */
  api_quota: ApiQuota;
  async_email_verification: AsyncEmailVerification;
  /** Changes to tokens, SMTP users, webhooks, SMS webhooks and users, newest first. A domain-limited token sees only its domain's subjects. */
  audit_events: AuditEventPage;
  /** Blocklist entries, newest first. */
  blocklist: Array<BlocklistEntry>;
  /** One monitor, with its hits, or its children for a range. */
  blocklist_monitor: BlocklistMonitor;
  /** Monitors of the account (ranges as one parent each). */
  blocklist_monitors: Array<BlocklistMonitor>;
  bulk_email: BulkEmail;
  /** The account's bulk requests, newest first, for the console (GraphQL only: SPEC.md has no such list). */
  bulk_emails: Array<BulkEmail>;
  /** Emails the capture transport kept, newest first (GET /v1/captured-emails). */
  captured_emails: CapturedEmailPage;
  /** The report records of one source IP. */
  dmarc_ip_report: Array<DmarcReportRecord>;
  /** DMARC monitors of the account. */
  dmarc_monitors: Array<DmarcMonitor>;
  /** The monitor's aggregate reports per source IP. */
  dmarc_report: Array<DmarcReportIp>;
  /** Organisations that sent reports in a period. */
  dmarc_report_sources: Array<DmarcReportSource>;
  domain: DomainType;
  /** The domains the caller reaches, by name (at most 500), for a domain picker: any scope over domain data lists them (GraphQL only). */
  domain_choices: Array<DomainRef>;
  /** The DNS records to publish for the domain. */
  domain_dns_records: DomainDnsRecords;
  domain_recipients: RecipientPage;
  domains: DomainPage;
  /** One email with its activity and, when captured, its content. */
  email: LoggedEmailDetail;
  /** One list; with detailed=true its addresses are paged in `emails`. */
  email_verification_list: EmailVerificationListType;
  /** The list's addresses with their results (null until verified). */
  email_verification_list_results: VerificationListResultsPage;
  /** The account's verification lists, newest first. */
  email_verification_lists: VerificationListsPage;
  /** The email log, newest first (GET /v1/emails). */
  emails: Array<LoggedEmail>;
  /** Hard-bounced recipients, newest first. */
  hard_bounces: Array<SuppressionEntry>;
  inbound: Inbound;
  /** The account's inbound routes, newest first; optionally of one domain. */
  inbounds: Array<Inbound>;
  /** The account's inbound routes, newest first, with the full pager (GET /v1/inbound). */
  inbounds_page: InboundPage;
  invite: Invite;
  /** Invitations not yet accepted, oldest first. */
  invites: Array<Invite>;
  /** Invitations not yet accepted, oldest first, with the full pager (GET /v1/invites). */
  invites_page: InvitePage;
  message: MessageDetail;
  message_schedule: MessageScheduleDetail;
  /** Sends with a send_at, newest first; cancelled ones are left out. */
  message_schedules: Array<MessageSchedule>;
  /** Sends with a send_at, newest first, with the full pager (GET /v1/message-schedules). */
  message_schedules_page: MessageSchedulePage;
  /** Accepted sends, newest first (GET /v1/messages). */
  messages: Array<MessageListItem>;
  /** Recipients on hold, newest first. */
  on_hold_list: Array<OnHoldEntry>;
  operator_accounts: Array<AccountType>;
  /** Mail kept by the capture transport, newest first. */
  operator_captured_mail: Array<CapturedMailType>;
  /** The pools of IP_POOLS: each address, its EHLO name and reverse DNS, and its warm-up. */
  operator_ip_pools: Array<IpPoolType>;
  /** Each plan's retention days in force. */
  operator_retention: Array<PlanRetentionType>;
  /** The console's landing page: sandbox or not, emails waiting, failing webhooks and the setup steps taken (GraphQL only). */
  overview: Overview;
  recipient: RecipientDetail;
  recipients: RecipientPage;
  /** One of sandbox_mails with its content (GraphQL only). */
  sandbox_mail: SandboxMailDetail;
  /** Mail the service wrote about the account that the capture transport kept, newest first, of the kinds the caller may act on (GraphQL only). */
  sandbox_mails: SandboxMailPage;
  /** The account's sender identities, newest first unless ordered. */
  sender_identities: Array<SenderIdentity>;
  sender_identity: SenderIdentity;
  /** Looks the address up without regard to case. */
  sender_identity_by_email: SenderIdentity;
  /** Status changes of the account's texts, newest first. */
  sms_activity: Array<SmsActivity>;
  /** One route, with its SMS number. */
  sms_inbound: SmsInbound;
  /** The account's SMS inbound routes, newest first. */
  sms_inbounds: Array<SmsInbound>;
  /** One SMS message with each of its texts. */
  sms_message: SmsMessageDetail;
  /** The account's SMS messages (sends), newest first. */
  sms_messages: Array<SmsMessage>;
  /** The account's SMS messages, newest first, with the full pager (GET /v1/sms-messages). */
  sms_messages_page: SmsMessagePage;
  sms_number: SmsNumberType;
  /** The account's SMS phone numbers, newest first. */
  sms_numbers: Array<SmsNumberType>;
  /** The account's SMS phone numbers, newest first, with the full pager (GET /v1/sms-numbers). */
  sms_numbers_page: SmsNumberPage;
  /** One recipient with its most recent texts. */
  sms_recipient: SmsRecipientDetail;
  /** Numbers the account has texted, newest first. */
  sms_recipients: Array<SmsRecipient>;
  sms_webhook: SmsWebhook;
  /** The SMS webhooks of one SMS number, newest first. */
  sms_webhooks: Array<SmsWebhook>;
  smtp_user: SmtpUser;
  /** The SMTP users of a domain, newest first. */
  smtp_users: Array<SmtpUser>;
  /** Recipients who complained of spam, newest first. */
  spam_complaints: Array<SuppressionEntry>;
  template: Template;
  /** The account's template categories, by name. */
  template_categories: Array<TemplateCategory>;
  template_translation: TemplateTranslation;
  /** The template's translations, by language. */
  template_translations: Array<TemplateTranslation>;
  /** The account's templates, newest first. */
  templates: TemplatePage;
  token: Token;
  /** The account's API tokens, newest first. */
  tokens: Array<Token>;
  /** The account's API tokens, newest first, with the full pager (GET /v1/token). */
  tokens_page: TokenPage;
  /** Unsubscribed recipients, newest first. */
  unsubscribes: Array<SuppressionEntry>;
  /** The account's plan, retention, verification credits and API quota (GraphQL only). */
  usage: AccountUsage;
  user: AccountUser;
  /** The people with access to the account, oldest first. */
  users: Array<AccountUser>;
  webhook: Webhook;
  /** One delivery of an email webhook, with the body its requests carry (GraphQL only). */
  webhook_delivery: WebhookDeliveryDetail;
  /** Every request sent to a webhook (deliveries and tests), newest first. */
  webhook_log: WebhookLogPage;
  /** The email webhooks of one domain, newest first. */
  webhooks: WebhookPage;
  whoami: Whoami;
};


export type QueryActivitiesArgs = {
  date_from: Scalars['String']['input'];
  date_to: Scalars['String']['input'];
  domain_id: Scalars['ID']['input'];
  event?: InputMaybe<Array<Scalars['String']['input']>>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryActivityArgs = {
  activity_id: Scalars['ID']['input'];
};


export type QueryAnalytics_CountryArgs = {
  date_from: Scalars['Int']['input'];
  date_to: Scalars['Int']['input'];
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  recipient_id?: InputMaybe<Array<Scalars['String']['input']>>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryAnalytics_DateArgs = {
  date_from: Scalars['Int']['input'];
  date_to: Scalars['Int']['input'];
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  event: Array<Scalars['String']['input']>;
  group_by?: Scalars['String']['input'];
  recipient_id?: InputMaybe<Array<Scalars['String']['input']>>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  timezone?: InputMaybe<Scalars['String']['input']>;
};


export type QueryAnalytics_Ua_NameArgs = {
  date_from: Scalars['Int']['input'];
  date_to: Scalars['Int']['input'];
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  recipient_id?: InputMaybe<Array<Scalars['String']['input']>>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryAnalytics_Ua_TypeArgs = {
  date_from: Scalars['Int']['input'];
  date_to: Scalars['Int']['input'];
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  recipient_id?: InputMaybe<Array<Scalars['String']['input']>>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryAsync_Email_VerificationArgs = {
  email_verification_id: Scalars['ID']['input'];
};


export type QueryAudit_EventsArgs = {
  action?: InputMaybe<Scalars['String']['input']>;
  date_from?: InputMaybe<Scalars['String']['input']>;
  date_to?: InputMaybe<Scalars['String']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  subject_id?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryBlocklistArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryBlocklist_MonitorArgs = {
  monitor_id: Scalars['ID']['input'];
};


export type QueryBlocklist_MonitorsArgs = {
  limit?: Scalars['Int']['input'];
  order?: InputMaybe<Scalars['String']['input']>;
  page?: Scalars['Int']['input'];
  query?: InputMaybe<Scalars['String']['input']>;
  sort_by?: InputMaybe<Scalars['String']['input']>;
};


export type QueryBulk_EmailArgs = {
  bulk_email_id: Scalars['ID']['input'];
};


export type QueryBulk_EmailsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryCaptured_EmailsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryDmarc_Ip_ReportArgs = {
  category?: InputMaybe<Scalars['String']['input']>;
  date_from?: InputMaybe<Scalars['String']['input']>;
  date_to?: InputMaybe<Scalars['String']['input']>;
  ip: Scalars['String']['input'];
  limit?: Scalars['Int']['input'];
  monitor_id: Scalars['ID']['input'];
  page?: Scalars['Int']['input'];
  report_source?: InputMaybe<Scalars['String']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
};


export type QueryDmarc_MonitorsArgs = {
  limit?: Scalars['Int']['input'];
  order?: InputMaybe<Scalars['String']['input']>;
  page?: Scalars['Int']['input'];
  query?: InputMaybe<Scalars['String']['input']>;
  sort_by?: InputMaybe<Scalars['String']['input']>;
};


export type QueryDmarc_ReportArgs = {
  category?: InputMaybe<Scalars['String']['input']>;
  date_from?: InputMaybe<Scalars['String']['input']>;
  date_to?: InputMaybe<Scalars['String']['input']>;
  limit?: Scalars['Int']['input'];
  monitor_id: Scalars['ID']['input'];
  page?: Scalars['Int']['input'];
  report_source?: InputMaybe<Scalars['String']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
};


export type QueryDmarc_Report_SourcesArgs = {
  date_from: Scalars['String']['input'];
  date_to: Scalars['String']['input'];
  monitor_id: Scalars['ID']['input'];
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QueryDomainArgs = {
  domain_id: Scalars['ID']['input'];
};


export type QueryDomain_Dns_RecordsArgs = {
  domain_id: Scalars['ID']['input'];
};


export type QueryDomain_RecipientsArgs = {
  domain_id: Scalars['ID']['input'];
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryDomainsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  verified?: InputMaybe<Scalars['Boolean']['input']>;
};


export type QueryEmailArgs = {
  email_id: Scalars['ID']['input'];
};


export type QueryEmail_Verification_ListArgs = {
  detailed?: Scalars['Boolean']['input'];
  email_verification_id: Scalars['ID']['input'];
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryEmail_Verification_List_ResultsArgs = {
  email_verification_id: Scalars['ID']['input'];
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  result?: InputMaybe<Array<Scalars['String']['input']>>;
  results?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryEmail_Verification_ListsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryEmailsArgs = {
  date_from?: InputMaybe<Scalars['String']['input']>;
  date_to?: InputMaybe<Scalars['String']['input']>;
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  interaction?: InputMaybe<Array<Scalars['String']['input']>>;
  limit?: Scalars['Int']['input'];
  message_id?: InputMaybe<Scalars['ID']['input']>;
  page?: Scalars['Int']['input'];
  recipient?: InputMaybe<Scalars['String']['input']>;
  recipient_email?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Array<Scalars['String']['input']>>;
  subject?: InputMaybe<Scalars['String']['input']>;
  tag?: InputMaybe<Scalars['String']['input']>;
  template?: InputMaybe<Scalars['ID']['input']>;
  template_id?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryHard_BouncesArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryInboundArgs = {
  inbound_id: Scalars['ID']['input'];
};


export type QueryInboundsArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryInbounds_PageArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryInviteArgs = {
  invite_id: Scalars['ID']['input'];
};


export type QueryInvitesArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryInvites_PageArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryMessageArgs = {
  message_id: Scalars['ID']['input'];
};


export type QueryMessage_ScheduleArgs = {
  message_id: Scalars['ID']['input'];
};


export type QueryMessage_SchedulesArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QueryMessage_Schedules_PageArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QueryMessagesArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryOn_Hold_ListArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryOperator_Captured_MailArgs = {
  limit?: Scalars['Int']['input'];
  to?: InputMaybe<Scalars['String']['input']>;
};


export type QueryRecipientArgs = {
  recipient_id: Scalars['ID']['input'];
};


export type QueryRecipientsArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QuerySandbox_MailArgs = {
  mail_id: Scalars['ID']['input'];
};


export type QuerySandbox_MailsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QuerySender_IdentitiesArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  order?: InputMaybe<Scalars['String']['input']>;
  order_by?: InputMaybe<Scalars['String']['input']>;
  page?: Scalars['Int']['input'];
  query?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySender_IdentityArgs = {
  identity_id: Scalars['ID']['input'];
};


export type QuerySender_Identity_By_EmailArgs = {
  email: Scalars['String']['input'];
};


export type QuerySms_ActivityArgs = {
  date_from?: InputMaybe<Scalars['Int']['input']>;
  date_to?: InputMaybe<Scalars['Int']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  sms_number_id?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QuerySms_InboundArgs = {
  sms_inbound_id: Scalars['ID']['input'];
};


export type QuerySms_InboundsArgs = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  sms_number_id?: InputMaybe<Scalars['ID']['input']>;
};


export type QuerySms_MessageArgs = {
  sms_message_id: Scalars['ID']['input'];
};


export type QuerySms_MessagesArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QuerySms_Messages_PageArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QuerySms_NumberArgs = {
  sms_number_id: Scalars['ID']['input'];
};


export type QuerySms_NumbersArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  paused?: InputMaybe<Scalars['Boolean']['input']>;
};


export type QuerySms_Numbers_PageArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  paused?: InputMaybe<Scalars['Boolean']['input']>;
};


export type QuerySms_RecipientArgs = {
  sms_recipient_id: Scalars['ID']['input'];
};


export type QuerySms_RecipientsArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  sms_number_id?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySms_WebhookArgs = {
  sms_webhook_id: Scalars['ID']['input'];
};


export type QuerySms_WebhooksArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  sms_number_id: Scalars['ID']['input'];
};


export type QuerySmtp_UserArgs = {
  domain_id: Scalars['ID']['input'];
  smtp_user_id: Scalars['ID']['input'];
};


export type QuerySmtp_UsersArgs = {
  domain_id: Scalars['ID']['input'];
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QuerySpam_ComplaintsArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryTemplateArgs = {
  template_id: Scalars['ID']['input'];
};


export type QueryTemplate_CategoriesArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryTemplate_TranslationArgs = {
  language: Scalars['String']['input'];
  template_id: Scalars['ID']['input'];
};


export type QueryTemplate_TranslationsArgs = {
  template_id: Scalars['ID']['input'];
};


export type QueryTemplatesArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryTokenArgs = {
  token_id: Scalars['ID']['input'];
};


export type QueryTokensArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryTokens_PageArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryUnsubscribesArgs = {
  domain_id?: InputMaybe<Scalars['ID']['input']>;
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryUserArgs = {
  user_id: Scalars['ID']['input'];
};


export type QueryUsersArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};


export type QueryWebhookArgs = {
  webhook_id: Scalars['ID']['input'];
};


export type QueryWebhook_DeliveryArgs = {
  delivery_id: Scalars['ID']['input'];
};


export type QueryWebhook_LogArgs = {
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
  webhook_id: Scalars['ID']['input'];
};


export type QueryWebhooksArgs = {
  domain_id: Scalars['ID']['input'];
  limit?: Scalars['Int']['input'];
  page?: Scalars['Int']['input'];
};

export type RecipientDetail = {
  __typename?: 'RecipientDetail';
  created_at: Scalars['PlainTimestamp']['output'];
  /** Empty when not deleted. */
  deleted_at: Scalars['String']['output'];
  domain: DomainType;
  email: Scalars['String']['output'];
  /** The latest 100 emails sent to this recipient, newest first. */
  emails: Array<RecipientEmail>;
  id: Scalars['ID']['output'];
  updated_at: Scalars['PlainTimestamp']['output'];
};

/** One email sent to a recipient, in short. */
export type RecipientEmail = {
  __typename?: 'RecipientEmail';
  created_at: Scalars['PlainTimestamp']['output'];
  /** The message's sender address. */
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  message_id: Scalars['ID']['output'];
  status: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  /** Null when the email has no tags. */
  tags?: Maybe<Array<Scalars['String']['output']>>;
};

export type RecipientPage = {
  __typename?: 'RecipientPage';
  data: Array<RecipientType>;
  meta: PageMeta;
};

export type RecipientType = {
  __typename?: 'RecipientType';
  created_at: Scalars['PlainTimestamp']['output'];
  /** Empty when not deleted. */
  deleted_at: Scalars['String']['output'];
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  updated_at: Scalars['PlainTimestamp']['output'];
};

/** Mail the service wrote about the account (an invitation, an address to confirm, a notice) that the capture transport kept. */
export type SandboxMail = {
  __typename?: 'SandboxMail';
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** invite, identity_confirmation, inbound_forward_confirmation, webhook_failing or blocklist_listed */
  kind: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type SandboxMailDetail = {
  __typename?: 'SandboxMailDetail';
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  html?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** invite, identity_confirmation, inbound_forward_confirmation, webhook_failing or blocklist_listed */
  kind: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  text: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type SandboxMailPage = {
  __typename?: 'SandboxMailPage';
  data: Array<SandboxMail>;
  meta: PageMeta;
};

export type ScheduledMessageRef = {
  __typename?: 'ScheduledMessageRef';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
};

export type SendEmailResult = {
  __typename?: 'SendEmailResult';
  message?: Maybe<Scalars['String']['output']>;
  /** The x-message-id of /v1: pass it as message_id to the email log. */
  message_id: Scalars['String']['output'];
  /** The domain has sending paused: the message waits until it is switched back on. */
  send_paused: Scalars['Boolean']['output'];
  warnings: Array<SendWarning>;
};

export type SendSmsResult = {
  __typename?: 'SendSmsResult';
  /** The x-sms-message-id of /v1: the id of GET /v1/sms-messages/{id}. */
  sms_message_id: Scalars['ID']['output'];
};

export type SendWarning = {
  __typename?: 'SendWarning';
  recipients: Array<SuppressedRecipient>;
  /** SOME_SUPPRESSED, or ALL_SUPPRESSED when no recipient is left */
  type: Scalars['String']['output'];
  warning: Scalars['String']['output'];
};

/** An address the account sends from, usable once its owner confirms it. */
export type SenderIdentity = {
  __typename?: 'SenderIdentity';
  /** Whether the confirmation mail carries personal_note. */
  add_note: Scalars['Boolean']['output'];
  domain: DomainRef;
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  is_verified: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  personal_note?: Maybe<Scalars['String']['output']>;
  reply_to_email?: Maybe<Scalars['String']['output']>;
  reply_to_name?: Maybe<Scalars['String']['output']>;
  /** How many times the confirmation mail was sent again. */
  resends: Scalars['Int']['output'];
};

/** One step of setting up sending and whether the account has taken it. */
export type SetupStep = {
  __typename?: 'SetupStep';
  /** Null when the caller may not see what the step counts (its scope is missing). */
  done?: Maybe<Scalars['Boolean']['output']>;
  /** domain (a domain added), verified (a domain verified), token (an API token made), email (an email sent), webhook (a webhook added). */
  key: Scalars['String']['output'];
};

/** A text received in the SMS sandbox: stored as a received one, forwarded by the routes that take it. */
export type SimulatedSmsInbound = {
  __typename?: 'SimulatedSmsInbound';
  /** The routes of the number it is forwarded to (enabled, and their filter takes it). */
  forwarded_to: Scalars['Int']['output'];
  /** The received text. */
  id: Scalars['ID']['output'];
};

/** The answer of a single (synchronous) verification. */
export type SingleEmailVerification = {
  __typename?: 'SingleEmailVerification';
  /** A verification result: valid, catch_all, mailbox_full, role_based, unknown, failed, syntax_error, typo, mailbox_not_found, disposable or mailbox_blocked */
  status: Scalars['String']['output'];
};

export type Sms = {
  __typename?: 'Sms';
  created_at: Scalars['IsoTimestamp']['output'];
  error_description?: Maybe<Scalars['String']['output']>;
  /** The provider's error code when failed. */
  error_type?: Maybe<Scalars['String']['output']>;
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  segment_count: Scalars['Int']['output'];
  /** queued, sent, delivered, failed, or skipped (the recipient opted out) */
  status: Scalars['String']['output'];
  /** The text as this recipient got it (personalized). */
  text: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type SmsActivity = {
  __typename?: 'SmsActivity';
  /** The text as the recipient got it. */
  content: Scalars['String']['output'];
  /** When the text reached this status. */
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  sms_message_id: Scalars['ID']['output'];
  /** queued, sent, delivered or failed */
  status: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

/** An SMS inbound route: texts to its number that pass its filter are POSTed to forward_url. */
export type SmsInbound = {
  __typename?: 'SmsInbound';
  created_at: Scalars['IsoTimestamp']['output'];
  /** False when turned off, or when the service paused it after its forward URL kept failing. */
  enabled: Scalars['Boolean']['output'];
  /** Null: every text is forwarded. */
  filter?: Maybe<SmsInboundFilter>;
  forward_url: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** Signs every forward (the Signature header), as webhook secrets do. */
  secret: Scalars['String']['output'];
  /** Set on the single-route query (sms_inbound) only. */
  sms_number?: Maybe<SmsNumberType>;
};

export type SmsInboundFilter = {
  __typename?: 'SmsInboundFilter';
  comparer: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type SmsInboundFilterInput = {
  /** equal, not-equal, contains, not-contains, starts-with, ends-with, not-starts-with, not-ends-with */
  comparer: Scalars['String']['input'];
  /** Compared with the text (surrounding spaces trimmed), ignoring case; at most 255 characters. */
  value: Scalars['String']['input'];
};

export type SmsMessage = {
  __typename?: 'SmsMessage';
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** Texts of it wait because its number was paused after it was accepted. */
  paused: Scalars['Boolean']['output'];
  text: Scalars['String']['output'];
  to: Array<Scalars['String']['output']>;
};

export type SmsMessageDetail = {
  __typename?: 'SmsMessageDetail';
  created_at: Scalars['IsoTimestamp']['output'];
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** Texts of it wait because its number was paused after it was accepted. */
  paused: Scalars['Boolean']['output'];
  /** One per recipient, in the order of `to`. */
  sms: Array<Sms>;
  text: Scalars['String']['output'];
  to: Array<Scalars['String']['output']>;
};

/** One page of SMS messages with the full pager (GET /v1/sms-messages). */
export type SmsMessagePage = {
  __typename?: 'SmsMessagePage';
  data: Array<SmsMessage>;
  meta: PageMeta;
};

/** One page of SMS numbers with the full pager (GET /v1/sms-numbers). */
export type SmsNumberPage = {
  __typename?: 'SmsNumberPage';
  data: Array<SmsNumberType>;
  meta: PageMeta;
};

export type SmsNumberType = {
  __typename?: 'SmsNumberType';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  paused: Scalars['Boolean']['output'];
  telephone_number: Scalars['String']['output'];
};

export type SmsPersonalizationInput = {
  data: Scalars['JSONObject']['input'];
  /** One of the `to` numbers; its `{{var}}`s are filled from `data`. */
  phone_number: Scalars['String']['input'];
};

export type SmsRecipient = {
  __typename?: 'SmsRecipient';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  /** E.164 */
  number: Scalars['String']['output'];
  /** active or opt_out */
  status: Scalars['String']['output'];
};

export type SmsRecipientDetail = {
  __typename?: 'SmsRecipientDetail';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  /** E.164 */
  number: Scalars['String']['output'];
  /** Its most recent texts, newest first. */
  sms: Array<Sms>;
  /** active or opt_out */
  status: Scalars['String']['output'];
};

/** An SMS webhook: sms.* events of one SMS number pushed to one URL. */
export type SmsWebhook = {
  __typename?: 'SmsWebhook';
  created_at: Scalars['IsoTimestamp']['output'];
  enabled: Scalars['Boolean']['output'];
  events: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The signing secret of the Signature and webhook-signature headers. */
  secret: Scalars['String']['output'];
  sms_number: SmsNumberType;
  updated_at: Scalars['IsoTimestamp']['output'];
  url: Scalars['String']['output'];
};

/** Credentials for sending through the SMTP relay on behalf of one domain. */
export type SmtpUser = {
  __typename?: 'SmtpUser';
  accessed_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  created_at: Scalars['IsoTimestamp']['output'];
  domain_id: Scalars['ID']['output'];
  enabled: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  port: Scalars['Int']['output'];
  /** The SMTP host clients connect to. */
  server: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

/** A source address of IP_POOLS, its EHLO name beside its reverse DNS, and its warm-up. */
export type SourceAddressType = {
  __typename?: 'SourceAddressType';
  address: Scalars['String']['output'];
  /** Today's cap; null: none. */
  daily_cap?: Maybe<Scalars['Int']['output']>;
  /** The name given in EHLO from this address. */
  ehlo: Scalars['String']['output'];
  /** The EHLO name is one of its reverse DNS names; large providers refuse mail when it is not. */
  ehlo_matches: Scalars['Boolean']['output'];
  /** Its reverse DNS (PTR) names, as this process resolves them. */
  reverse_dns: Array<Scalars['String']['output']>;
  /** Sent today (UTC), counted while it warms up. */
  sent_today: Scalars['Int']['output'];
  /** No warm-up cap: configured as warmed, or past IP_WARMUP_SCHEDULE. */
  warmed: Scalars['Boolean']['output'];
  /** Day of its warm-up (1 = the day of its first send); null before its first send. */
  warmup_day?: Maybe<Scalars['Int']['output']>;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** New activity of one domain, live (GraphQL over SSE at /graphql/stream): each event is what one change recorded. It comes from whichever process made it (Postgres LISTEN/NOTIFY) once its transaction commits. */
  activity: Array<ActivityEntry>;
  /** Token changes in the caller's account, live (GraphQL over SSE at /graphql/stream). */
  token_events: TokenEvent;
  /** Each delivery attempt of one webhook, live (GraphQL over SSE at /graphql/stream), from whichever process made it. */
  webhook_deliveries: WebhookLogEntry;
};


export type SubscriptionActivityArgs = {
  domain_id: Scalars['ID']['input'];
};


export type SubscriptionWebhook_DeliveriesArgs = {
  webhook_id: Scalars['ID']['input'];
};

export type SuppressedRecipient = {
  __typename?: 'SuppressedRecipient';
  email: Scalars['String']['output'];
  name?: Maybe<Scalars['String']['output']>;
  /** on_hold, hard_bounced, unsubscribed, spam_complained or blocklisted */
  reasons: Array<Scalars['String']['output']>;
};

/** A hard-bounce, spam-complaint or unsubscribe entry. */
export type SuppressionEntry = {
  __typename?: 'SuppressionEntry';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  reason?: Maybe<Scalars['String']['output']>;
  recipient: RecipientType;
};

/** One template, with its category, domain and sending stats. */
export type Template = {
  __typename?: 'Template';
  /** Every category of the template, in the order given; /v1 shows only the first, as `category`. */
  categories: Array<TemplateCategory>;
  category?: Maybe<TemplateCategory>;
  created_at: Scalars['IsoTimestamp']['output'];
  description?: Maybe<Scalars['String']['output']>;
  domain?: Maybe<TemplateDomain>;
  /** The HTML content (Liquid). GraphQL only. */
  html: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  image_path?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  /** The default subject a send may leave out. GraphQL only. */
  subject?: Maybe<Scalars['String']['output']>;
  tags: Array<Scalars['String']['output']>;
  template_stats: TemplateStats;
  /** The plain-text content (Liquid). GraphQL only. */
  text: Scalars['String']['output'];
  /** html */
  type: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  /** The variables the template reads from personalization data, as its engine (Liquid) sees them, each null. */
  variables?: Maybe<Scalars['JSONObject']['output']>;
};

/** A named group of templates. */
export type TemplateCategory = {
  __typename?: 'TemplateCategory';
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** The domain nested in a single template, with its sending totals. */
export type TemplateDomain = {
  __typename?: 'TemplateDomain';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  totals: TemplateDomainTotals;
  updated_at: Scalars['IsoTimestamp']['output'];
};

/** Sending totals of the template's domain. */
export type TemplateDomainTotals = {
  __typename?: 'TemplateDomainTotals';
  delivered: Scalars['Int']['output'];
  hard_bounced: Scalars['Int']['output'];
  sent: Scalars['Int']['output'];
  soft_bounced: Scalars['Int']['output'];
};

/** A template as lists show it. */
export type TemplateListItem = {
  __typename?: 'TemplateListItem';
  created_at: Scalars['PlainTimestamp']['output'];
  description?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  image_path?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  tags: Array<Scalars['String']['output']>;
  /** html */
  type: Scalars['String']['output'];
  updated_at: Scalars['PlainTimestamp']['output'];
  /** The variables the template reads from personalization data, as its engine (Liquid) sees them, each null. */
  variables?: Maybe<Scalars['JSONObject']['output']>;
};

export type TemplatePage = {
  __typename?: 'TemplatePage';
  data: Array<TemplateListItem>;
  meta: PageMeta;
};

/** Emails sent with the template. */
export type TemplateStats = {
  __typename?: 'TemplateStats';
  delivered: Scalars['Int']['output'];
  last_email_sent_at?: Maybe<Scalars['IsoTimestamp']['output']>;
  queued: Scalars['Int']['output'];
  rejected: Scalars['Int']['output'];
  sent: Scalars['Int']['output'];
  total: Scalars['Int']['output'];
};

/** A template's content in one language, used by sends that name it. */
export type TemplateTranslation = {
  __typename?: 'TemplateTranslation';
  created_at: Scalars['IsoTimestamp']['output'];
  html: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  language: Scalars['String']['output'];
  subject?: Maybe<Scalars['String']['output']>;
  template_id: Scalars['ID']['output'];
  text: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  /** The variables this content reads from personalization data, each null. */
  variables?: Maybe<Scalars['JSONObject']['output']>;
};

/** An API token. The secret is never readable after creation. */
export type Token = {
  __typename?: 'Token';
  created_at: Scalars['IsoTimestamp']['output'];
  /** The one domain the token is limited to; null for the whole account (GraphQL only). */
  domain_id?: Maybe<Scalars['ID']['output']>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  scopes: Array<Scalars['String']['output']>;
  /** pause or unpause */
  status: Scalars['String']['output'];
};

export type TokenEvent = {
  __typename?: 'TokenEvent';
  /** created, updated or deleted */
  action: Scalars['String']['output'];
  token: Token;
};

/** One page of tokens with the full pager (GET /v1/token). */
export type TokenPage = {
  __typename?: 'TokenPage';
  data: Array<Token>;
  meta: PageMeta;
};

/** A template a user is limited to. */
export type UserTemplateRef = {
  __typename?: 'UserTemplateRef';
  created_at: Scalars['IsoTimestamp']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  type: Scalars['String']['output'];
};

export type VerificationListMessage = {
  __typename?: 'VerificationListMessage';
  message: Scalars['String']['output'];
};

export type VerificationListPageMeta = {
  __typename?: 'VerificationListPageMeta';
  current_page: Scalars['Int']['output'];
  from?: Maybe<Scalars['Int']['output']>;
  per_page: Scalars['String']['output'];
  to?: Maybe<Scalars['Int']['output']>;
};

/** One address of a list and its result (null until verified). */
export type VerificationListResult = {
  __typename?: 'VerificationListResult';
  address: Scalars['String']['output'];
  result?: Maybe<Scalars['String']['output']>;
};

export type VerificationListResultsPage = {
  __typename?: 'VerificationListResultsPage';
  data: Array<VerificationListResult>;
  meta: VerificationListPageMeta;
};

/** How many addresses of the list ended with each result. */
export type VerificationListStatistics = {
  __typename?: 'VerificationListStatistics';
  catch_all: Scalars['Int']['output'];
  disposable: Scalars['Int']['output'];
  failed: Scalars['Int']['output'];
  mailbox_blocked: Scalars['Int']['output'];
  mailbox_full: Scalars['Int']['output'];
  mailbox_not_found: Scalars['Int']['output'];
  role_based: Scalars['Int']['output'];
  syntax_error: Scalars['Int']['output'];
  typo: Scalars['Int']['output'];
  unknown: Scalars['Int']['output'];
  valid: Scalars['Int']['output'];
};

export type VerificationListStatus = {
  __typename?: 'VerificationListStatus';
  /** Addresses verified so far */
  count: Scalars['Int']['output'];
  /** uploading, created, verifying, verified, failed, canceled or paused */
  name: Scalars['String']['output'];
};

export type VerificationListsPage = {
  __typename?: 'VerificationListsPage';
  data: Array<EmailVerificationListType>;
  meta: VerificationListPageMeta;
};

/** Emails still to be delivered (queued, scheduled, paused or deferred). */
export type WaitingEmails = {
  __typename?: 'WaitingEmails';
  count: Scalars['Int']['output'];
  /** True when only the latest emails were counted and more may be waiting beyond them. */
  more: Scalars['Boolean']['output'];
};

/** An email webhook: events of one domain pushed to one URL. */
export type Webhook = {
  __typename?: 'Webhook';
  created_at: Scalars['IsoTimestamp']['output'];
  domain: DomainRef;
  editable: Scalars['Boolean']['output'];
  enabled: Scalars['Boolean']['output'];
  events: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The signing secret of the Signature and webhook-signature headers. */
  secret: Scalars['String']['output'];
  updated_at: Scalars['IsoTimestamp']['output'];
  url: Scalars['String']['output'];
};

/** One event for one webhook, with the exact body its requests carry (the same on every retry). */
export type WebhookDeliveryDetail = {
  __typename?: 'WebhookDeliveryDetail';
  attempts: Scalars['Int']['output'];
  /** The JSON body sent, as sent. */
  body: Scalars['String']['output'];
  created_at: Scalars['IsoTimestamp']['output'];
  /** The webhook-id header of its requests. */
  id: Scalars['ID']['output'];
  last_status?: Maybe<Scalars['Int']['output']>;
  /** pending, delivered, failed or gave_up */
  state: Scalars['String']['output'];
  /** The event type. */
  type: Scalars['String']['output'];
  webhook_id: Scalars['ID']['output'];
};

/** One HTTP request of a webhook: a delivery attempt, or the test request of a create or update. */
export type WebhookLogEntry = {
  __typename?: 'WebhookLogEntry';
  attempted_at: Scalars['IsoTimestamp']['output'];
  /** The `webhook-id` header of the delivery; null for a test request. */
  delivery_id?: Maybe<Scalars['ID']['output']>;
  duration_ms: Scalars['Int']['output'];
  error?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** The first characters of the answer. */
  response_excerpt?: Maybe<Scalars['String']['output']>;
  /** The HTTP status; null when no answer arrived. */
  status?: Maybe<Scalars['Int']['output']>;
  /** A 2xx answer arrived within the timeout. */
  success: Scalars['Boolean']['output'];
  /** The event type sent. */
  type: Scalars['String']['output'];
};

export type WebhookLogPage = {
  __typename?: 'WebhookLogPage';
  data: Array<WebhookLogEntry>;
  meta: PageMeta;
};

export type WebhookPage = {
  __typename?: 'WebhookPage';
  data: Array<Webhook>;
  meta: PageMeta;
};

export type WebhookReplay = {
  __typename?: 'WebhookReplay';
  /** How many failed or given-up deliveries were queued again. */
  replayed: Scalars['Int']['output'];
};

/** The caller: which account and token, with what reach. */
export type Whoami = {
  __typename?: 'Whoami';
  account_id: Scalars['ID']['output'];
  /** Set when the caller is limited to exactly one domain. */
  domain_id?: Maybe<Scalars['ID']['output']>;
  /** Every domain the caller is limited to: a domain-limited token's one, a console user's one or several; null for the whole account. */
  domain_ids?: Maybe<Array<Scalars['ID']['output']>>;
  scopes: Array<Scalars['String']['output']>;
  token_id: Scalars['ID']['output'];
};

export type CreateDomainMutationVariables = Exact<{
  name: string;
}>;


export type CreateDomainMutation = { create_domain: { id: string, name: string, can: { manage: boolean }, domain_settings: { return_path_subdomain: string } } };

export type DomainWithListQueryVariables = Exact<{
  domain_id: string | number;
}>;


export type DomainWithListQuery = { domain: { id: string, mx: boolean | null, created_at: string }, domains: { meta: { total: number } } };

export type CreateTokenMutationVariables = Exact<{
  name: string;
  scopes: Array<string> | string;
  domain_id?: string | number | null | undefined;
}>;


export type CreateTokenMutation = { create_token: { id: string, accessToken: string, name: string, created_at: string, scopes: Array<string>, has_full: boolean, domain: { id: string, name: string } | null } };

export type TokenByIdQueryVariables = Exact<{
  token_id: string | number;
}>;


export type TokenByIdQuery = { token: { id: string, name: string, status: string, created_at: string, scopes: Array<string> } };

export type WhoamiQueryVariables = Exact<{ [key: string]: never; }>;


export type WhoamiQuery = { whoami: { account_id: string, token_id: string, scopes: Array<string>, domain_id: string | null } };

export type TemplateSingleFragment = { id: string, name: string, description: string | null, type: string, image_path: string | null, tags: Array<string>, variables: Record<string, unknown> | null, created_at: string, updated_at: string, category: { id: string, name: string } | null, domain: { id: string, name: string, created_at: string, updated_at: string, totals: { hard_bounced: number, soft_bounced: number, sent: number, delivered: number } } | null, template_stats: { total: number, queued: number, sent: number, rejected: number, delivered: number, last_email_sent_at: string | null } };

export type TemplatesQueryVariables = Exact<{
  domain_id?: string | number | null | undefined;
  page?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type TemplatesQuery = { templates: { data: Array<{ id: string, name: string, description: string | null, type: string, image_path: string | null, tags: Array<string>, variables: Record<string, unknown> | null, created_at: string, updated_at: string }>, meta: { current_page: number, from: number | null, last_page: number, per_page: number, to: number | null, total: number } } };

export type TemplateByIdQueryVariables = Exact<{
  template_id: string | number;
}>;


export type TemplateByIdQuery = { template: { id: string, name: string, description: string | null, type: string, image_path: string | null, tags: Array<string>, variables: Record<string, unknown> | null, created_at: string, updated_at: string, category: { id: string, name: string } | null, domain: { id: string, name: string, created_at: string, updated_at: string, totals: { hard_bounced: number, soft_bounced: number, sent: number, delivered: number } } | null, template_stats: { total: number, queued: number, sent: number, rejected: number, delivered: number, last_email_sent_at: string | null } } };

export type CreateTemplateMutationVariables = Exact<{
  html: string;
  text?: string | null | undefined;
  name?: string | null | undefined;
  domain_id?: string | number | null | undefined;
  categories?: Array<string> | string | null | undefined;
  tags?: Array<string> | string | null | undefined;
  auto_generate?: boolean | null | undefined;
  subject?: string | null | undefined;
  from_email?: string | null | undefined;
  from_name?: string | null | undefined;
}>;


export type CreateTemplateMutation = { create_template: { id: string, name: string, description: string | null, type: string, image_path: string | null, tags: Array<string>, variables: Record<string, unknown> | null, created_at: string, updated_at: string, category: { id: string, name: string } | null, domain: { id: string, name: string, created_at: string, updated_at: string, totals: { hard_bounced: number, soft_bounced: number, sent: number, delivered: number } } | null, template_stats: { total: number, queued: number, sent: number, rejected: number, delivered: number, last_email_sent_at: string | null } } };

export type UpdateTemplateMutationVariables = Exact<{
  template_id: string | number;
  name?: string | null | undefined;
  html?: string | null | undefined;
  text?: string | null | undefined;
  tags?: Array<string> | string | null | undefined;
  categories?: Array<string> | string | null | undefined;
}>;


export type UpdateTemplateMutation = { update_template: { id: string, name: string, description: string | null, type: string, image_path: string | null, tags: Array<string>, variables: Record<string, unknown> | null, created_at: string, updated_at: string, category: { id: string, name: string } | null, domain: { id: string, name: string, created_at: string, updated_at: string, totals: { hard_bounced: number, soft_bounced: number, sent: number, delivered: number } } | null, template_stats: { total: number, queued: number, sent: number, rejected: number, delivered: number, last_email_sent_at: string | null } } };

export type DeleteTemplateMutationVariables = Exact<{
  template_id: string | number;
}>;


export type DeleteTemplateMutation = { delete_template: boolean };

export type TemplateCategoriesQueryVariables = Exact<{
  page?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type TemplateCategoriesQuery = { template_categories: Array<{ id: string, name: string }> };

export type CreateTemplateCategoryMutationVariables = Exact<{
  name: string;
}>;


export type CreateTemplateCategoryMutation = { create_template_category: { id: string, name: string } };

export type DeleteTemplateCategoryMutationVariables = Exact<{
  category_id: string | number;
}>;


export type DeleteTemplateCategoryMutation = { delete_template_category: boolean };

export const TemplateSingleFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TemplateSingle"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"image_path"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hard_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"soft_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"template_stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}},{"kind":"Field","name":{"kind":"Name","value":"last_email_sent_at"}}]}}]}}]} as unknown as DocumentNode<TemplateSingleFragment, unknown>;
export const CreateDomainDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateDomain"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"create_domain"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"can"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"manage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domain_settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"return_path_subdomain"}}]}}]}}]}}]} as unknown as DocumentNode<CreateDomainMutation, CreateDomainMutationVariables>;
export const DomainWithListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DomainWithList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"mx"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domains"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"meta"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]} as unknown as DocumentNode<DomainWithListQuery, DomainWithListQueryVariables>;
export const CreateTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scopes"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"create_token"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"scopes"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scopes"}}},{"kind":"Argument","name":{"kind":"Name","value":"domain_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"has_full"}},{"kind":"Field","name":{"kind":"Name","value":"domain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<CreateTokenMutation, CreateTokenMutationVariables>;
export const TokenByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TokenById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token_id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}}]}}]}}]} as unknown as DocumentNode<TokenByIdQuery, TokenByIdQueryVariables>;
export const WhoamiDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Whoami"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"whoami"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account_id"}},{"kind":"Field","name":{"kind":"Name","value":"token_id"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"domain_id"}}]}}]}}]} as unknown as DocumentNode<WhoamiQuery, WhoamiQueryVariables>;
export const TemplatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Templates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"templates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}}},{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"data"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"image_path"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}}]}},{"kind":"Field","name":{"kind":"Name","value":"meta"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current_page"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"last_page"}},{"kind":"Field","name":{"kind":"Name","value":"per_page"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]} as unknown as DocumentNode<TemplatesQuery, TemplatesQueryVariables>;
export const TemplateByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TemplateById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"template"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"template_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TemplateSingle"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TemplateSingle"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"image_path"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hard_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"soft_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"template_stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}},{"kind":"Field","name":{"kind":"Name","value":"last_email_sent_at"}}]}}]}}]} as unknown as DocumentNode<TemplateByIdQuery, TemplateByIdQueryVariables>;
export const CreateTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"html"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"categories"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tags"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"auto_generate"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subject"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from_email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from_name"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"create_template"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"html"},"value":{"kind":"Variable","name":{"kind":"Name","value":"html"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"domain_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain_id"}}},{"kind":"Argument","name":{"kind":"Name","value":"categories"},"value":{"kind":"Variable","name":{"kind":"Name","value":"categories"}}},{"kind":"Argument","name":{"kind":"Name","value":"tags"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tags"}}},{"kind":"Argument","name":{"kind":"Name","value":"auto_generate"},"value":{"kind":"Variable","name":{"kind":"Name","value":"auto_generate"}}},{"kind":"Argument","name":{"kind":"Name","value":"subject"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subject"}}},{"kind":"Argument","name":{"kind":"Name","value":"from_email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from_email"}}},{"kind":"Argument","name":{"kind":"Name","value":"from_name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from_name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TemplateSingle"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TemplateSingle"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"image_path"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hard_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"soft_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"template_stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}},{"kind":"Field","name":{"kind":"Name","value":"last_email_sent_at"}}]}}]}}]} as unknown as DocumentNode<CreateTemplateMutation, CreateTemplateMutationVariables>;
export const UpdateTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"html"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tags"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"categories"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"update_template"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"template_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"html"},"value":{"kind":"Variable","name":{"kind":"Name","value":"html"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"tags"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tags"}}},{"kind":"Argument","name":{"kind":"Name","value":"categories"},"value":{"kind":"Variable","name":{"kind":"Name","value":"categories"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TemplateSingle"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TemplateSingle"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"image_path"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"category"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"domain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}},{"kind":"Field","name":{"kind":"Name","value":"updated_at"}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hard_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"soft_bounced"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"template_stats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"}},{"kind":"Field","name":{"kind":"Name","value":"delivered"}},{"kind":"Field","name":{"kind":"Name","value":"last_email_sent_at"}}]}}]}}]} as unknown as DocumentNode<UpdateTemplateMutation, UpdateTemplateMutationVariables>;
export const DeleteTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"delete_template"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"template_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"template_id"}}}]}]}}]} as unknown as DocumentNode<DeleteTemplateMutation, DeleteTemplateMutationVariables>;
export const TemplateCategoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TemplateCategories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"template_categories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<TemplateCategoriesQuery, TemplateCategoriesQueryVariables>;
export const CreateTemplateCategoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateTemplateCategory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"create_template_category"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CreateTemplateCategoryMutation, CreateTemplateCategoryMutationVariables>;
export const DeleteTemplateCategoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteTemplateCategory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"category_id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"delete_template_category"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"category_id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"category_id"}}}]}]}}]} as unknown as DocumentNode<DeleteTemplateCategoryMutation, DeleteTemplateCategoryMutationVariables>;