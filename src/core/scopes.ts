/** Token scopes, as SPEC.md lists them. `<area>_full` implies `<area>_read`. */
export const SCOPES = [
  'email_full',
  'domains_read',
  'domains_full',
  'activity_read',
  'activity_full',
  'analytics_read',
  'analytics_full',
  'tokens_full',
  'webhooks_full',
  'templates_full',
  'suppressions_read',
  'suppressions_full',
  'sms_full',
  'sms_read',
  'email_verification_read',
  'email_verification_full',
  'inbounds_full',
  'recipients_read',
  'recipients_full',
  'sender_identity_read',
  'sender_identity_full',
  'users_read',
  'users_full',
  'smtp_users_read',
  'smtp_users_full',
  'dmarc_monitoring_read',
  'dmarc_monitoring_full',
  'blocklist_monitoring_read',
  'blocklist_monitoring_full',
  'whatsapp_full',
] as const;

export type Scope = (typeof SCOPES)[number];

/** The role an operation may need besides scopes: the instance operator (OPERATOR_TOKEN). */
export const OPERATOR = 'operator';

/**
 * Declared beside a scope (`@Authorized(['sms_full', WHOLE_ACCOUNT])`) on operations over data
 * that belongs to no domain (SMS, email verification, template categories): a token limited to a
 * domain is refused them (403), since nothing there is of its domain.
 */
export const WHOLE_ACCOUNT = 'whole_account';

export function scopeSatisfied(held: ReadonlySet<string>, needed: string): boolean {
  if (held.has(needed)) return true;
  return needed.endsWith('_read') && held.has(needed.replace(/_read$/, '_full'));
}

/**
 * What an account user's permission (modules/users/roles.ts) lets them do, in token scopes: a
 * console session becomes an Actor holding the scopes of its permissions, so the same
 * `@Authorized` declarations guard users and tokens. Permissions with no API behind them (billing,
 * IP addresses, the file manager) grant none. Template reads need templates_full: there is no
 * narrower scope, and any template permission means working on templates.
 */
export const PERMISSION_SCOPES: Readonly<Record<string, readonly Scope[]>> = {
  'read-activity': ['activity_read'],
  'read-analytics': ['analytics_read'],
  'read-email': ['activity_read'],
  'read-recipient': ['recipients_read'],
  'read-error-log': ['activity_read'],
  'read-suppressions': ['suppressions_read'],
  'manage-suppressions': ['suppressions_full'],
  'read-own-templates': ['templates_full'],
  'read-all-templates': ['templates_full'],
  'manage-template': ['templates_full'],
  'manage-domain': ['domains_full'],
  'read-sender-identities': ['sender_identity_read'],
  'manage-sender-identities': ['sender_identity_full'],
  'manage-inbound': ['inbounds_full'],
  'manage-webhook': ['webhooks_full'],
  'control-sendings': ['email_full', 'domains_read'],
  'control-tracking-options': ['domains_read'],
  'manage-api-token': ['tokens_full'],
  'access-smtp-credentials': ['smtp_users_read'],
  'view-smtp-users': ['smtp_users_read'],
  'manage-smtp-users': ['smtp_users_full'],
  'manage-verification': ['email_verification_full'],
  'read-email-verification': ['email_verification_read'],
  'manage-email-verification': ['email_verification_full'],
  'read-sms': ['sms_read'],
  'manage-sms': ['sms_full'],
  'manage-verified-recipients': ['recipients_full'],
  'view-sms-webhooks': ['sms_read'],
  'manage-sms-webhooks': ['sms_full'],
  'view-sms-inbound': ['sms_read'],
  'manage-sms-inbound': ['sms_full'],
  'manage-dmarc': ['dmarc_monitoring_full'],
  'manage-blocklist': ['blocklist_monitoring_full'],
  'manage-account': ['users_full', 'whatsapp_full'],
};

/** The scopes a set of permissions grants (see PERMISSION_SCOPES). */
export function scopesOfPermissions(permissions: readonly string[]): Set<Scope> {
  return new Set(permissions.flatMap((p) => PERMISSION_SCOPES[p] ?? []));
}
