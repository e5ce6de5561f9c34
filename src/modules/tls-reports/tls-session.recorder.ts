import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import { TtlCache } from '../../lib/mail-hosts.js';
import { parseTlsRptRecord, policyString, type SessionCount, type SessionPolicy, type TlsResultType } from '../../lib/tls-rpt.js';
import type { TlsSessionRepository } from './tls-session.repository.js';

/** Counts are written to the database this often. */
const FLUSH_MS = 10_000;
/** Counts kept in the process at most between writes; past it they are written at once. */
const KEYS_MAX = 5000;
/** How long a domain's `_smtp._tls` answer is kept. */
const RECORD_MS = 3_600_000;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The TLS sessions of MX delivery, counted in the process and written every ten seconds, for the
 * recipient domains whose `_smtp._tls` record asks for reports (RFC 8460); sessions to other
 * domains are not counted. A count not written when the process ends is lost: a report is an
 * aggregate, and each session is a delivery, recorded on its own.
 */
export class TlsSessions {
  private readonly asks = new TtlCache<boolean>(RECORD_MS);
  private counts = new Map<string, SessionCount>();
  private day = today();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly dns: Dns,
    private readonly repo: () => TlsSessionRepository,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** One session to `domain` through `mx` under `policy`: `result` null for success. Never throws, never waits. */
  note(domain: string, policy: SessionPolicy, mx: string, result: TlsResultType | null): void {
    void this.asks
      .get(domain, async () => parseTlsRptRecord(await this.dns.txt(`_smtp._tls.${domain}`)) !== null)
      .then((asks) => asks && this.count(domain, policy, mx, result))
      .catch(() => undefined);
  }

  private count(domain: string, policy: SessionPolicy, mx: string, result: TlsResultType | null): void {
    if (this.day !== today()) void this.flush();
    const key = `${domain}|${policy.type}|${mx}|${result ?? ''}`;
    const known = this.counts.get(key);
    if (known) known.count++;
    else {
      this.counts.set(key, { policy_domain: domain, policy_type: policy.type, policy_string: policyString(policy), mx_host: mx, result_type: result, count: 1 });
    }
    if (this.counts.size >= KEYS_MAX) void this.flush();
  }

  async flush(): Promise<void> {
    const [day, counts] = [this.day, [...this.counts.values()]];
    this.counts = new Map();
    this.day = today();
    try {
      await this.repo().add(day, counts);
    } catch (err) {
      this.log.warn({ err: (err as Error).message, counts: counts.length }, 'TLS session counts not written');
    }
  }
}
