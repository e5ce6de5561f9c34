import { isIP } from 'node:net';
import { isEmail } from '../sending/send.validate.js';
import { webhookUrlProblem } from '../../lib/webhook-http.js';
import { refusal } from '../../lib/public-address.js';
import { COMPARERS } from '../../core/comparers.js';
import {
  CATCH_TYPES,
  FILTER_MODES,
  FORWARD_TYPES,
  INBOUND_LIMITS as L,
  MATCH_TYPES,
  type CatchFilterInput,
  type ForwardInput,
  type MatchFilterInput,
} from './inbound.inputs.js';
import type { StoredFilter } from './inbound.match.js';
import { label, msg, FieldErrorBag } from '../../core/errors.js';

/**
 * The rules of an inbound route that need no database. Each check adds to the bag under the
 * dotted key the wire uses (`catch_filter.filters.0.value`, `forwards.2.value`), so every problem
 * of a request comes back in one 422.
 */
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const HEADER_NAME = /^[!-9;-~]+$/;

const blank = (v: string | null | undefined) => v == null || v.trim() === '';

export function checkName(bag: FieldErrorBag, name: string | null | undefined) {
  if (blank(name)) bag.add('name', msg.required('name'));
}

export function checkMode(bag: FieldErrorBag, field: 'catch_type' | 'match_type', value: string | null | undefined) {
  if (value != null && !(FILTER_MODES as readonly string[]).includes(value)) bag.add(field, msg.in(field));
}

/**
 * A route takes mail for a domain's names (its inbound domain lies under it) and forwards it with
 * the domain's return path: only a domain proven through its DNS may have routes, as only a
 * verified domain may send (SPEC.md's sender-domain-must-be-verified rule).
 */
export const DOMAIN_NOT_VERIFIED = 'The domain must be verified before it can receive inbound mail.';
export const INBOUND_DOMAIN_TAKEN = 'The inbound domain is already used by another account.';

export function checkDomainVerified(bag: FieldErrorBag, domain: { is_verified: boolean }) {
  if (!domain.is_verified) bag.add('domain_id', DOMAIN_NOT_VERIFIED);
}

/** The inbound domain, lowercased, when it is a subdomain of the route's sending domain. */
export function checkInboundDomain(bag: FieldErrorBag, value: string | null | undefined, domainName: string, enabled: boolean): string | null {
  if (blank(value)) {
    if (enabled) bag.add('inbound_domain', msg.requiredIf('inbound_domain', 'domain_enabled', 'true'));
    return null;
  }
  const host = value!.trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(host)) bag.add('inbound_domain', msg.url('inbound_domain'));
  else if (!host.endsWith(`.${domainName.toLowerCase()}`)) {
    bag.add('inbound_domain', `The inbound domain must be a subdomain of ${domainName}.`);
  }
  return host;
}

function checkRules(bag: FieldErrorBag, path: string, rules: { comparer: string; value: string; key?: string | null }[], header: boolean) {
  if (!rules.length) bag.add(`${path}.filters`, msg.required(`${path}.filters`));
  if (rules.length > L.filters) bag.add(`${path}.filters`, msg.maxItems(`${path}.filters`, L.filters));
  rules.slice(0, L.filters).forEach((r, i) => {
    const p = `${path}.filters.${i}`;
    if (blank(r.comparer)) bag.add(`${p}.comparer`, msg.required(`${p}.comparer`));
    else if (!(COMPARERS as readonly string[]).includes(r.comparer)) bag.add(`${p}.comparer`, msg.in(`${p}.comparer`));
    if (blank(r.value)) bag.add(`${p}.value`, msg.required(`${p}.value`));
    else if (r.value.length > L.filterValue) bag.add(`${p}.value`, msg.maxString(`${p}.value`, L.filterValue));
    if (!header) return;
    if (blank(r.key)) bag.add(`${p}.key`, msg.requiredIf(`${p}.key`, `${path}.type`, 'match_header'));
    else if (r.key!.length > L.headerKey) bag.add(`${p}.key`, msg.maxString(`${p}.key`, L.headerKey));
    else if (!HEADER_NAME.test(r.key!)) bag.add(`${p}.key`, `The ${label(`${p}.key`)} must be a header name.`);
  });
}

const modeOf = (mode: string | null | undefined): 'all' | 'one' => (mode === 'one' ? 'one' : 'all');

export function checkCatchFilter(bag: FieldErrorBag, f: CatchFilterInput, mode: string | null | undefined): StoredFilter {
  if (!(CATCH_TYPES as readonly string[]).includes(f.type)) {
    bag.add('catch_filter.type', msg.in('catch_filter.type'));
    return { type: f.type, filters: [] };
  }
  if (f.type === 'catch_all') return { type: f.type, mode: modeOf(mode), filters: [] };
  const rules = f.filters ?? [];
  checkRules(bag, 'catch_filter', rules, false);
  return { type: f.type, mode: modeOf(mode), filters: rules.map((r) => ({ comparer: r.comparer, value: r.value })) };
}

export function checkMatchFilter(bag: FieldErrorBag, f: MatchFilterInput, mode: string | null | undefined): StoredFilter {
  if (!(MATCH_TYPES as readonly string[]).includes(f.type)) {
    bag.add('match_filter.type', msg.in('match_filter.type'));
    return { type: f.type, filters: [] };
  }
  if (f.type === 'match_all') return { type: f.type, mode: modeOf(mode), filters: [] };
  const header = f.type === 'match_header';
  const rules = f.filters ?? [];
  checkRules(bag, 'match_filter', rules, header);
  return {
    type: f.type,
    mode: modeOf(mode),
    filters: rules.map((r) => ({ comparer: r.comparer, value: r.value, ...(header ? { key: r.key ?? null } : {}) })),
  };
}

/**
 * Forward destinations. Webhook URLs get the webhook rules: http(s) only, and a literal private
 * address is refused now (a host name is checked at connect time, on every forward).
 */
export function checkForwards(bag: FieldErrorBag, list: ForwardInput[], opts: { allowPrivate: boolean; inboundHost: string }) {
  if (!list.length) bag.add('forwards', msg.required('forwards'));
  if (list.length > L.forwards) bag.add('forwards', msg.maxItems('forwards', L.forwards));
  const seen = new Set<string>();
  list.slice(0, L.forwards).forEach((f, i) => {
    const p = `forwards.${i}`;
    const value = f.value?.trim() ?? '';
    if (!(FORWARD_TYPES as readonly string[]).includes(f.type)) bag.add(`${p}.type`, msg.in(`${p}.type`));
    if (!value) return void bag.add(`${p}.value`, msg.required(`${p}.value`));
    if (value.length > L.forwardValue) return void bag.add(`${p}.value`, msg.maxString(`${p}.value`, L.forwardValue));
    if (f.type === 'email' && !isEmail(value)) bag.add(`${p}.value`, msg.email(`${p}.value`));
    // A route's own address would send the copy straight back in: a mail loop.
    else if (f.type === 'email' && value.toLowerCase().endsWith(`@${opts.inboundHost.toLowerCase()}`)) {
      bag.add(`${p}.value`, `The ${label(`${p}.value`)} may not be an inbound route address.`);
    }
    if (f.type === 'webhook') {
      const host = URL.canParse(value) ? new URL(value).hostname.replace(/^\[|\]$/g, '') : '';
      if (webhookUrlProblem(value)) bag.add(`${p}.value`, msg.url(`${p}.value`));
      else if (!opts.allowPrivate && isIP(host) && refusal(host)) bag.add(`${p}.value`, `The ${label(`${p}.value`)} must point to a public address.`);
    }
    const id = `${f.type}:${value.toLowerCase()}`;
    if (seen.has(id)) bag.add(`${p}.value`, `The ${label(`${p}.value`)} field has a duplicate value.`);
    seen.add(id);
  });
}
