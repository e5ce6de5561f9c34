/**
 * The catalogue of account-user roles and permissions. Preset roles carry a fixed permission set,
 * derived here rather than trusted from storage, so changing a preset changes every user of it.
 */
export const CUSTOM_ROLE = 'Custom User';
export const ADMIN_ROLE = 'admin';

export const ROLES = [ADMIN_ROLE, 'manager', 'designer', 'accountant', CUSTOM_ROLE] as const;

/**
 * The names SPEC.md lists, the ones the official SDK's `UserPermission` enum sends (so its
 * clients are not refused), and this product's own areas (verification, DMARC, blocklists).
 */
export const PERMISSIONS = [
  'read-activity',
  'read-analytics',
  'read-email',
  'read-recipient',
  'read-error-log',
  'read-suppressions',
  'manage-suppressions',
  'read-own-templates',
  'read-all-templates',
  'manage-template',
  'read-filemanager',
  'manage-domain',
  'read-sender-identities',
  'manage-sender-identities',
  'manage-inbound',
  'manage-webhook',
  'control-sendings',
  'control-tracking-options',
  'manage-api-token',
  'access-smtp-credentials',
  'view-smtp-users',
  'manage-smtp-users',
  'read-ip-addresses',
  'manage-ip-addresses',
  'manage-verification',
  'read-email-verification',
  'manage-email-verification',
  'read-sms',
  'manage-sms',
  'manage-verified-recipients',
  'view-sms-webhooks',
  'manage-sms-webhooks',
  'view-sms-inbound',
  'manage-sms-inbound',
  'manage-dmarc',
  'manage-blocklist',
  'read-invoice',
  'update-plan',
  'manage-account',
] as const;

const BILLING = new Set(['read-invoice', 'update-plan', 'manage-account']);

const PRESETS: Record<string, readonly string[]> = {
  admin: PERMISSIONS,
  // A manager runs the sending side but not billing or the account itself.
  manager: PERMISSIONS.filter((p) => !BILLING.has(p)),
  designer: ['read-own-templates', 'read-all-templates', 'manage-template', 'read-filemanager'],
  accountant: ['read-invoice', 'read-analytics'],
};

const BY_LOWER = new Map<string, string>(ROLES.map((r) => [r.toLowerCase(), r]));

/**
 * The canonical role name. Matching ignores case because the official SDK's `UserRole` enum
 * sends `Admin`, `Manager`, ... while SPEC.md names them in lower case.
 */
export function canonicalRole(role: unknown): string | undefined {
  return typeof role === 'string' ? BY_LOWER.get(role.trim().toLowerCase()) : undefined;
}

/** What a user or invite of this role may do: the preset, or the chosen list for a custom user. */
export function permissionsOf(role: string, chosen: readonly string[]): string[] {
  const preset = PRESETS[role];
  return preset ? [...preset] : [...new Set(chosen)];
}
