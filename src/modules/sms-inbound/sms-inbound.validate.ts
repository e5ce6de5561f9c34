import { isIP } from 'node:net';
import { webhookUrlProblem } from '../../lib/webhook-http.js';
import { refusal } from '../../lib/public-address.js';
import type { SmsInboundFilterInput } from './sms-inbound.inputs.js';
import { COMPARERS } from '../../core/comparers.js';
import { label, msg, type FieldErrorBag } from '../../core/errors.js';

/**
 * The rules of an SMS inbound route that need no database, each added to the bag under its wire
 * key (`filter.value`), so one 422 names every problem of a request.
 */
const blank = (v: string | null | undefined) => v == null || v.trim() === '';

/** SPEC.md Limits "SMS inbound route". */
const L = { name: 191, forwardUrl: 255, filterValue: 255 } as const;

export function checkName(bag: FieldErrorBag, name: string | null | undefined): void {
  if (blank(name)) bag.add('name', msg.required('name'));
  else if (name!.length > L.name) bag.add('name', msg.maxString('name', L.name));
}

/**
 * The forward URL gets the webhook rules: http(s) with a host, and a literal private address is
 * refused now unless WEBHOOK_ALLOW_PRIVATE (a host name is checked at connect time, on every POST).
 */
export function checkForwardUrl(bag: FieldErrorBag, url: string | null | undefined, allowPrivate: boolean): void {
  if (blank(url)) return void bag.add('forward_url', msg.required('forward_url'));
  const value = url!.trim();
  if (value.length > L.forwardUrl) return void bag.add('forward_url', msg.maxString('forward_url', L.forwardUrl));
  if (webhookUrlProblem(value)) return void bag.add('forward_url', msg.url('forward_url'));
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && refusal(host)) bag.add('forward_url', `The ${label('forward_url')} must point to a public address.`);
}

export function checkFilter(bag: FieldErrorBag, filter: SmsInboundFilterInput): void {
  if (blank(filter.comparer)) bag.add('filter.comparer', msg.required('filter.comparer'));
  else if (!(COMPARERS as readonly string[]).includes(filter.comparer)) bag.add('filter.comparer', msg.in('filter.comparer'));
  if (blank(filter.value)) bag.add('filter.value', msg.required('filter.value'));
  else if (filter.value.length > L.filterValue) bag.add('filter.value', msg.maxString('filter.value', L.filterValue));
}
