/**
 * Country of an IP address from geoip-country's bundled data (country level only: no city).
 * The database is read when first needed, so only processes that look IPs up pay for it.
 */
let geoip: Promise<{ lookup(ip: string): { country: string } | null }> | null = null;

export async function countryCodeOf(ip: string): Promise<string | null> {
  geoip ??= import('geoip-country').then((m) => m.default);
  try {
    return (await geoip).lookup(ip)?.country || null;
  } catch {
    return null;
  }
}

const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** "DE" → "Germany"; null for a code the locale data does not know. */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return names.of(code.toUpperCase()) ?? null;
  } catch {
    return null;
  }
}
