import { domainToASCII } from 'node:url';
import { POPULAR_DOMAINS, run as suggestDomain } from '@zootools/email-spell-checker';
import { isDisposableEmailDomain } from 'disposable-email-domains-js';

/**
 * The checks that need no network: syntax, typo, disposable domain, role address.
 */

/**
 * Local parts that name a function rather than a person: mail to them reaches a team or a
 * robot, is often shared, and complains more. Matched on the whole local part, ignoring case
 * and a `+tag`.
 */
export const ROLE_LOCAL_PARTS = new Set([
  'admin', 'administrator', 'abuse', 'billing', 'contact', 'help', 'hello', 'hostmaster', 'info',
  'marketing', 'no-reply', 'noreply', 'office', 'postmaster', 'sales', 'security', 'support',
  'team', 'webmaster', 'jobs', 'careers', 'accounts', 'enquiries', 'feedback', 'press', 'privacy',
]);

const POPULAR = new Set(POPULAR_DOMAINS);

// RFC 5322 dot-atom local part; quoted local parts are legal but almost never real, so refused.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

export interface ParsedAddress {
  local: string;
  /** Lowercase, in ASCII (IDNA) form, as DNS and SMTP see it. */
  domain: string;
}

/** The address split and normalised, or null when its syntax is not that of a deliverable address. */
export function parseAddress(email: string): ParsedAddress | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  const local = email.slice(0, at);
  const domain = domainToASCII(email.slice(at + 1).toLowerCase());
  if (!domain || local.length > 64 || local.length + 1 + domain.length > 254) return null;
  if (!LOCAL.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return { local, domain };
}

/** The corrected address when the domain looks like a misspelt common provider. */
export function typoSuggestion(addr: ParsedAddress): string | undefined {
  if (POPULAR.has(addr.domain)) return undefined;
  // The spell checker also "corrects" any unfamiliar TLD (acme.test → acme.de); only a common
  // provider's domain is a confident enough guess to call the address a typo.
  const s = suggestDomain({ email: `${addr.local}@${addr.domain}` });
  return s && POPULAR.has(s.domain) ? `${addr.local}@${s.domain}` : undefined;
}

export function isDisposable(addr: ParsedAddress): boolean {
  return isDisposableEmailDomain(addr.domain);
}

export function isRoleAddress(addr: ParsedAddress): boolean {
  return ROLE_LOCAL_PARTS.has(addr.local.toLowerCase().split('+')[0]);
}
