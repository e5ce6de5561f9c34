import { z } from 'zod';

/**
 * Traffic shaping per destination site (docs/delivery.md, "Traffic shaping"). A site is the set of
 * MX hosts one provider runs, found from a recipient domain's MX answer: a built-in or configured
 * site whose patterns match one of its hosts (every Google-hosted domain is the site `gmail`),
 * else the answer's hosts themselves, so domains served by the same hosts share a site.
 */

/** What one source address may send to one site. Rates count the whole installation's workers. */
export interface SiteLimits {
  /** Open connections to the site at once, per worker process. */
  connections: number;
  /** Messages sent over one connection before it is closed and another opened. */
  messages_per_connection: number;
  /** Messages a minute, spaced evenly: no minute, counted from any instant, holds more. */
  per_minute: number | null;
  /** Messages an hour, spaced evenly likewise. */
  per_hour: number | null;
}

export interface SiteRule extends SiteLimits {
  name: string;
  /** MX host patterns: `*.google.com` matches every name under google.com, `mx.example.net` that name. */
  mx: string[];
}

/** A site as delivery uses it: its name (the shared state's key), its metrics label and its limits. */
export interface Site {
  name: string;
  /** A named site's name; `other` for the rest, whose names are MX host lists (unbounded as a label). */
  label: string;
  limits: SiteLimits;
}

const limitFields = {
  connections: z.number().int().min(1).max(1000),
  messages_per_connection: z.number().int().min(1).max(100_000),
  per_minute: z.number().int().min(1).max(1_000_000).nullable(),
  per_hour: z.number().int().min(1).max(100_000_000).nullable(),
};

/** One entry of DELIVERY_SHAPING: a built-in site's limits changed, `default`'s, or a new site with its MX patterns. */
export const siteOverride = z
  .object({
    mx: z
      .array(z.string().regex(/^(\*\.)?[a-z0-9.-]+$/i, 'an MX pattern is a host name, or *. and a domain'))
      .min(1)
      .max(100)
      .optional(),
    ...Object.fromEntries(Object.entries(limitFields).map(([k, v]) => [k, v.optional()])),
  })
  .strict() as z.ZodType<Partial<SiteLimits> & { mx?: string[] }>;

export type SiteOverrides = Record<string, Partial<SiteLimits> & { mx?: string[] }>;

/**
 * The large providers' sites. Their limits are deliberately below what an established sender
 * reaches: a new installation's addresses have no reputation yet, and a provider that is sent
 * faster than it likes answers 421, which slows the site down anyway (SiteShaper).
 */
export const BUILT_IN_SITES: readonly SiteRule[] = [
  { name: 'gmail', mx: ['*.google.com', '*.googlemail.com'], connections: 5, messages_per_connection: 50, per_minute: 600, per_hour: 20_000 },
  { name: 'microsoft', mx: ['*.outlook.com'], connections: 5, messages_per_connection: 100, per_minute: 600, per_hour: 20_000 },
  { name: 'yahoo', mx: ['*.yahoodns.net'], connections: 5, messages_per_connection: 20, per_minute: 300, per_hour: 10_000 },
  { name: 'apple', mx: ['*.mail.icloud.com', '*.me.com'], connections: 5, messages_per_connection: 50, per_minute: 300, per_hour: 10_000 },
];

/** Every other site: no rate, only connections (DELIVERY_CONNECTIONS_PER_HOST unless overridden). */
const DEFAULT_SITE = { messages_per_connection: 1000, per_minute: null, per_hour: null };

const hostMatches = (pattern: string, host: string) =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;

/** The sites delivery knows: the built-in ones with DELIVERY_SHAPING's changes, its new ones, and the default. */
export class SiteTable {
  private readonly rules: SiteRule[];
  readonly fallback: SiteLimits;

  constructor(overrides: SiteOverrides = {}, defaultConnections = 10) {
    const { default: fallback, ...named } = overrides;
    this.fallback = { connections: defaultConnections, ...DEFAULT_SITE, ...stripMx(fallback) };
    const rules = BUILT_IN_SITES.map((rule) => ({ ...rule, ...named[rule.name], name: rule.name }));
    for (const [name, o] of Object.entries(named)) {
      if (rules.some((r) => r.name === name)) continue;
      if (!o.mx) throw new Error(`DELIVERY_SHAPING: the new site ${name} needs its "mx" patterns`);
      rules.push({ ...this.fallback, ...o, mx: o.mx, name });
    }
    this.rules = rules.map((r) => ({ ...r, mx: r.mx.map((p) => p.toLowerCase()) }));
  }

  /** The site of a domain whose MX answer is `hosts` (lowest preference first). */
  siteOf(hosts: readonly string[]): Site {
    const names = hosts.map((h) => h.toLowerCase().replace(/\.$/, ''));
    const rule = this.rules.find((r) => names.some((h) => r.mx.some((p) => hostMatches(p, h))));
    if (rule) return { name: rule.name, label: rule.name, limits: rule };
    return { name: [...new Set(names)].sort().join(',').slice(0, 255), label: 'other', limits: this.fallback };
  }
}

function stripMx(o: (Partial<SiteLimits> & { mx?: string[] }) | undefined): Partial<SiteLimits> {
  if (!o) return {};
  const { mx: _mx, ...limits } = o;
  return limits;
}

/** Only an answer's first characters are read, whatever its length. */
const READ = 512;
const SLOW_WORDS = /rate.?limit|too many|too fast|throttl|unusual rate|slow down|exceeded|temporarily deferred|try again later/i;

/**
 * Whether an answer asks the sender to slow down as a whole (not this one message): 421 (the
 * server closes the session), the providers' rate and volume codes (Gmail's 4.7.28, Microsoft's
 * 4.7.650 and S775, Yahoo's TSS04), or a 450/451 that says so. A mailbox receiving too fast
 * (4.2.1) is that mailbox's business, and a 5xx is a refusal, not a pace.
 */
export function asksToSlowDown(response: string): boolean {
  const text = response.slice(0, READ);
  if (!/^\s*4/.test(text) || /\b4\.2\.1\b/.test(text)) return false;
  if (/^\s*421\b/.test(text) || /\b4\.7\.(28|650)\b|\bS775\b|\bTSS0\d\b/.test(text)) return true;
  return /^\s*45[01]\b/.test(text) && SLOW_WORDS.test(text);
}
