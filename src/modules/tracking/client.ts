import { UAParser } from 'ua-parser-js';
import { countryCodeOf } from '../../lib/geo.js';
import type { ActivityData } from '../activity/activity.entity.js';

export type UaType = 'webmail' | 'mobile' | 'desktop';

/**
 * Webmail services fetch images through their own proxies, so the user agent names the proxy
 * rather than the reader's browser: the service is the most that can be known.
 */
const WEBMAIL: [RegExp, string][] = [
  [/GoogleImageProxy|ggpht\.com/i, 'Gmail'],
  [/YahooMailProxy/i, 'Yahoo Mail'],
  [/\bOWA\//, 'Outlook.com'],
];

/** Mail apps ua-parser-js does not name; the first group, when there is one, names the system. */
const APPS: [RegExp, string, UaType | null][] = [
  [/Outlook-(iOS|Android)/i, 'Outlook', 'mobile'],
  [/Microsoft Outlook|Microsoft Office/i, 'Outlook', 'desktop'],
];
const SYSTEM_NAMES: Record<string, string> = { ios: 'iOS', android: 'Android' };

const MOBILE_DEVICES = new Set(['mobile', 'tablet', 'wearable']);

export function describeAgent(userAgent: string): { ua_name: string; ua_os: string; ua_type: UaType } {
  const parsed = new UAParser(userAgent).getResult();
  const os = parsed.os.name ?? 'unknown';
  for (const [pattern, name] of WEBMAIL) {
    if (pattern.test(userAgent)) return { ua_name: name, ua_os: os, ua_type: 'webmail' };
  }
  const mobile = MOBILE_DEVICES.has(parsed.device.type ?? '');
  for (const [pattern, name, type] of APPS) {
    const m = pattern.exec(userAgent);
    if (!m) continue;
    const system = os !== 'unknown' ? os : (SYSTEM_NAMES[m[1]?.toLowerCase() ?? ''] ?? os);
    return { ua_name: name, ua_os: system, ua_type: mobile ? 'mobile' : (type ?? 'desktop') };
  }
  return { ua_name: parsed.browser.name ?? 'unknown', ua_os: os, ua_type: mobile ? 'mobile' : 'desktop' };
}

/** What every tracked interaction records about who made it. */
export async function describeClient(ip: string, userAgent: string): Promise<ActivityData> {
  // IPv4 clients of a dual-stack socket show up as `::ffff:a.b.c.d`.
  const address = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  return {
    ip: address,
    user_agent: userAgent.slice(0, 1000),
    ...describeAgent(userAgent),
    country: (await countryCodeOf(address)) ?? 'unknown',
  };
}
