import { randomBytes } from 'node:crypto';
import { mailHostAddresses, mailHosts } from '../../lib/mail-hosts.js';
import type { AppServices } from '../../core/services.js';
import { statusOf, type VerificationResult } from './verification.statuses.js';
import { isDisposable, isRoleAddress, parseAddress, typoSuggestion } from './address-checks.js';
import { HostLimiter } from './host-limiter.js';
import { probe, type ProbeOutcome, type Reply } from './smtp-probe.js';

export type { VerificationResult };

export interface CheckOutcome {
  result: VerificationResult;
  /** The corrected address, when the result is `typo`. */
  suggestion?: string;
  /** The MX host that was probed. */
  mx?: string;
  /** Why the check could not run, when the result is `failed`. */
  error?: string;
}

type Services = Pick<AppServices, 'config' | 'dns' | 'log'>;

/**
 * What a caller learns when no SMTP conversation took place: the same text whether the MX address
 * was refused (loopback, private, reserved: no connection is made) or the connection failed, and
 * no address or errno, so verification cannot be used to map the service's network. A timeout
 * says only that. The detail goes to the server log.
 */
export const UNREACHABLE = 'The mail server could not be reached.';
export const NO_ANSWER = 'The mail server did not answer in time.';

let limiter: HostLimiter | null = null;
function hostLimiter(config: AppServices['config']): HostLimiter {
  limiter ??= new HostLimiter(() => ({ concurrency: config.VERIFY_HOST_CONCURRENCY, perMinute: config.VERIFY_HOST_PER_MINUTE }));
  return limiter;
}

const failed = (error: string, mx?: string): CheckOutcome => ({ result: 'failed', error, ...(mx ? { mx } : {}) });

/** A lookup that gives up at the deadline; a timeout is reported as such. */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), Math.max(1, deadline - Date.now()))));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Verifies one address: syntax, typo of a common provider, disposable domain, role address, then
 * DNS (MX, else the implicit MX of an A record) and an SMTP probe of the lowest-preference MX.
 * The whole check, rate-limit wait included, ends by `timeoutMs` (default VERIFY_TIMEOUT_MS);
 * running out of time gives `failed`, as SPEC.md defines it. Lists reuse this per address.
 */
export async function verifyAddress(services: Services, email: string, opts: { timeoutMs?: number } = {}): Promise<CheckOutcome> {
  const { config } = services;
  const deadline = Date.now() + (opts.timeoutMs ?? config.VERIFY_TIMEOUT_MS);
  const addr = parseAddress(email.trim());
  if (!addr) return { result: 'syntax_error' };
  const suggestion = typoSuggestion(addr);
  if (suggestion) return { result: 'typo', suggestion };
  if (isDisposable(addr)) return { result: 'disposable' };
  if (isRoleAddress(addr)) return { result: 'role_based' };

  const target = await mailHost(services, addr.domain, deadline);
  if (target === 'timeout') return failed(`The DNS lookup of ${addr.domain} timed out.`);
  if (target === 'error') return { result: 'unknown' };
  // Refused like a connection that failed: `failed` (refunded), with the same generic reason.
  if (target === 'refused') return failed(UNREACHABLE);
  if (!target) return { result: 'mailbox_not_found' };

  const release = await hostLimiter(config).acquire(target.host, deadline);
  if (!release) return failed(`No probe of ${target.host} could start in time (rate limit per MX host).`, target.host);
  try {
    const outcome = await probe({
      host: target.ip,
      port: config.VERIFY_SMTP_PORT,
      heloName: config.VERIFY_HELO_NAME ?? config.MAIL_HELO_NAME ?? config.SMTP_PUBLIC_HOST,
      mailFrom: config.VERIFY_MAIL_FROM ?? `verify@${config.SMTP_PUBLIC_HOST}`,
      address: `${addr.local}@${addr.domain}`,
      randomAddress: `${randomBytes(9).toString('hex')}@${addr.domain}`,
      deadline,
    });
    if (outcome.kind === 'timeout' || outcome.kind === 'connection') {
      services.log.info({ domain: addr.domain, mx: target.host, ip: target.ip, detail: outcome.detail }, 'verification probe failed');
    }
    return { ...classify(outcome), mx: target.host };
  } finally {
    release();
  }
}

/**
 * The host to probe: the lowest-preference MX that has an address, or the domain itself when it
 * has no MX but an A record (RFC 5321 §5.1). null: nowhere to deliver (incl. a null MX, RFC 7505).
 * Every address is checked (lib/mail-hosts.ts) and the probe connects to the checked IP; a host
 * whose addresses are all refused is skipped. 'refused': hosts were found, none with a usable address.
 */
async function mailHost(
  { dns, config, log }: Services,
  domain: string,
  deadline: number,
): Promise<{ host: string; ip: string } | null | 'refused' | 'timeout' | 'error'> {
  try {
    const mx = await beforeDeadline(dns.mx(domain), deadline);
    if (mx === 'timeout') return 'timeout';
    let refused = false;
    for (const host of mailHosts(mx, domain)) {
      const checked = await beforeDeadline(mailHostAddresses(dns, host, config.MX_ALLOW_PRIVATE), deadline);
      if (checked === 'timeout') return 'timeout';
      if (checked.refused.length) {
        refused = true;
        log.info({ domain, mx: host, refused: checked.refused }, 'verification: MX address refused (MX_ALLOW_PRIVATE is off)');
      }
      if (checked.usable.length) return { host, ip: checked.usable[0] };
    }
    return refused ? 'refused' : null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ETIMEOUT' ? 'timeout' : 'error';
  }
}

const FULL = /\b(full|quota|insufficient storage|over ?quota)\b/i;
const BLOCKED = /\b(block(ed|list)?|blacklist(ed)?|spam|policy|reputation|rbl|spamhaus|denied|5\.7\.\d+)\b/i;

/** What one refusal means for the address. */
function classifyReply(reply: Reply): VerificationResult {
  if (reply.code === 552 || (reply.code >= 400 && FULL.test(reply.text))) return 'mailbox_full';
  if (reply.code === 554 || (reply.code >= 500 && BLOCKED.test(reply.text))) return 'mailbox_blocked';
  if ([550, 551, 553].includes(reply.code)) return 'mailbox_not_found';
  // 4xx (greylisting, try later) and odd 5xx (syntax, sequence) say nothing about the mailbox.
  return 'unknown';
}

function classify(outcome: ProbeOutcome): CheckOutcome {
  if (outcome.kind === 'refused') {
    // Refused before the address was named: only a block says something about it (we are not let in).
    const r = classifyReply(outcome.reply);
    return { result: r === 'mailbox_blocked' ? r : 'unknown' };
  }
  if (outcome.kind !== 'replies') return failed(outcome.kind === 'timeout' ? NO_ANSWER : UNREACHABLE);
  const { rcpt, random } = outcome;
  if (rcpt.code < 200 || rcpt.code >= 300) return { result: classifyReply(rcpt) };
  if (random && random.code >= 200 && random.code < 300) return { result: 'catch_all' };
  return { result: 'valid' };
}

/** The columns a check's outcome is stored in, on a single check (sync or async). */
export function resultColumns(outcome: CheckOutcome) {
  return {
    status: statusOf(outcome.result),
    result: outcome.result,
    error: outcome.error ?? null,
    suggestion: outcome.suggestion ?? null,
    mx: outcome.mx ?? null,
    verified_at: new Date(),
  };
}
