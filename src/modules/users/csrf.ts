import type { IncomingHttpHeaders } from 'node:http';
import { safeEqual } from '../../lib/secrets.js';
import { SESSION_COOKIE } from './session.service.js';

/** The session cookie's value in a Cookie header, or null. */
export function sessionCookieOf(headers: IncomingHttpHeaders): string | null {
  const header = headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * Whether an Origin header, when a browser sends one, is this service: PUBLIC_URL's origin or
 * the request's own Host. A foreign page's request carries its own origin and is refused.
 */
export function originAllowed(headers: IncomingHttpHeaders, publicUrl: string | undefined): boolean {
  const origin = headers.origin;
  if (!origin) return true;
  if (origin === 'null') return false;
  try {
    const o = new URL(origin);
    if (publicUrl && o.origin === new URL(publicUrl).origin) return true;
    return !!headers.host && o.host === headers.host;
  } catch {
    return false;
  }
}

/**
 * The CSRF rule for requests a session cookie authenticates: X-CSRF-Token equal to the session's
 * token (a cross-site page cannot read it) and no foreign Origin, whatever the method. GET too:
 * some GET routes change state (starting a verification list, checking a domain), and
 * SameSite=Lax sends the cookie on a cross-site top-level navigation, which can set no header
 * (test/console/cross-site.test.ts). Answers the refusal's message, or null.
 */
export function csrfRefusal(headers: IncomingHttpHeaders, csrfToken: string, publicUrl: string | undefined): string | null {
  if (!originAllowed(headers, publicUrl)) return 'Cross-site request refused.';
  const given = headers['x-csrf-token'];
  if (typeof given !== 'string' || !safeEqual(given, csrfToken)) return 'CSRF token missing or invalid.';
  return null;
}
