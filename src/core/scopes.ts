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
