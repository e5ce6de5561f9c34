import { signToken, verifyToken } from '../../lib/secrets.js';

export interface LinkConfig {
  PUBLIC_URL: string;
  APP_SECRET: string;
}

/** One signing purpose per kind, so an open token can never pass as an unsubscribe token. */
const PURPOSE = { open: 'tracking:open', click: 'tracking:click', unsubscribe: 'tracking:unsubscribe' } as const;
const PATH = { open: 'o', click: 'c', unsubscribe: 'u' } as const;
export type TrackKind = keyof typeof PURPOSE;

export function baseOf(config: LinkConfig): string {
  return config.PUBLIC_URL.replace(/\/+$/, '');
}

/** What link building needs to know of a sending domain. */
export interface TrackingDomain {
  name: string;
  custom_tracking_enabled: boolean;
  custom_tracking_subdomain: string;
  /** The tracking CNAME was found by the last DNS check (domains.is_cname_verified). */
  cname_verified: boolean;
}

/** `<custom_tracking_subdomain>.<domain>`, lowercase: the host a domain's own tracking links use. */
export function trackingHostOf(d: Pick<TrackingDomain, 'name' | 'custom_tracking_subdomain'>): string {
  return `${d.custom_tracking_subdomain}.${d.name}`.toLowerCase();
}

/**
 * The link config of one domain's mail: its own tracking host once custom tracking is on and the
 * CNAME verified (the scheme stays PUBLIC_URL's, with no port: the CNAME target serves the
 * standard ports), PUBLIC_URL otherwise. A domain that is not ready keeps working links.
 */
export function linkConfigFor<C extends LinkConfig>(config: C, d: TrackingDomain): LinkConfig {
  if (!d.custom_tracking_enabled || !d.cname_verified) return config;
  const scheme = new URL(config.PUBLIC_URL).protocol;
  return { PUBLIC_URL: `${scheme}//${trackingHostOf(d)}`, APP_SECRET: config.APP_SECRET };
}

/** The prefix every tracking link starts with, so links of ours are never wrapped twice. */
export function trackingPrefix(config: LinkConfig): string {
  return `${baseOf(config)}/t/`;
}

// Short keys keep the tokens, and so the rewritten links, compact.
export function trackingUrl(config: LinkConfig, kind: TrackKind, emailId: string, url?: string): string {
  const data: Record<string, string> = { e: emailId };
  if (url !== undefined) data.u = url;
  return `${baseOf(config)}/t/${PATH[kind]}/${signToken(config.APP_SECRET, PURPOSE[kind], data)}`;
}

export interface TrackToken {
  emailId: string;
  url: string | null;
}

/** The email (and for clicks the one target) a token was signed for, or null when forged or malformed. */
export function readToken(appSecret: string, kind: TrackKind, token: string): TrackToken | null {
  const data = verifyToken<{ e?: unknown; u?: unknown }>(appSecret, PURPOSE[kind], token);
  if (!data || typeof data !== 'object' || typeof data.e !== 'string' || !data.e) return null;
  if (kind === 'click') return typeof data.u === 'string' && data.u ? { emailId: data.e, url: data.u } : null;
  return { emailId: data.e, url: null };
}
