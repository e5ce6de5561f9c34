import ipaddr from 'ipaddr.js';

/**
 * Failures per key in a window that starts at the key's first failure, in memory (per process).
 * After `max` failures the key is refused until its window ends. The table holds at most `size`
 * keys and never forgets one whose window is still open: when it is full of them, a new key is
 * refused instead (fail closed), so fresh keys cannot flush a victim's counter
 * (test/auth/throttle.test.ts, "a victim's counter survives").
 */
export class FailureCounter {
  private readonly entries = new Map<string, { count: number; until: number }>();
  /** While the table is full of open windows, none can close before this: no scan until then. */
  private fullUntil = 0;

  constructor(
    readonly max: number,
    private readonly windowMs: number,
    private readonly size: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it may now. */
  blockedFor(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    return entry && entry.count >= this.max ? Math.ceil((entry.until - now) / 1000) : 0;
  }

  /** Counts a failure; answers the seconds to wait when the table has no room for a new key, else 0. */
  add(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    if (entry) {
      entry.count += 1;
      return 0;
    }
    if (this.entries.size >= this.size) {
      const wait = this.makeRoom(now);
      if (wait) return wait;
    }
    this.entries.set(key, { count: 1, until: now + this.windowMs });
    return 0;
  }

  /** Takes one counted failure back (the attempt turned out not to be one). */
  refund(key: string, now = Date.now()): void {
    const entry = this.live(key, now);
    if (entry && --entry.count <= 0) this.entries.delete(key);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private live(key: string, now: number) {
    const entry = this.entries.get(key);
    if (entry && entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops the keys whose window ended; answers the seconds until one will, when none has. */
  private makeRoom(now: number): number {
    if (now < this.fullUntil) return Math.ceil((this.fullUntil - now) / 1000);
    let soonest = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.until <= now) this.entries.delete(key);
      else soonest = Math.min(soonest, entry.until);
    }
    if (this.entries.size < this.size) return 0;
    this.fullUntil = soonest;
    return Math.ceil((soonest - now) / 1000);
  }
}

/** How many attempts one address, one client and everyone together may fail per window. */
export interface AttemptLimits {
  perAddress: number;
  perClient: number;
  overall: number;
  windowMs: number;
  /** Keys each table holds at most (addresses, clients). */
  tableSize: number;
}

export type AttemptRefusal = { refusedBy: 'address' | 'client' | 'overall'; retryAfter: number };

/** An attempt counted as a failure before its work ran: `succeeded` takes it back. */
export interface Attempt {
  succeeded(): void;
  /** The work never judged the credential (it was refused for load): nothing is counted. */
  abandoned(): void;
}

/**
 * Attempts at a credential (a password, a second factor, a link's token) or at mailing an
 * address, limited per address, per client and over the whole process. Each attempt is counted
 * before its work starts, so requests in flight at once cannot pass a limit together
 * (test/auth/throttle.test.ts, "counts attempts in flight"). Per process: each API process counts its own.
 */
export class AttemptLimiter {
  private readonly byAddress: FailureCounter;
  private readonly byClient: FailureCounter;
  private readonly overall: FailureCounter;

  constructor(limits: AttemptLimits) {
    this.byAddress = new FailureCounter(limits.perAddress, limits.windowMs, limits.tableSize);
    this.byClient = new FailureCounter(limits.perClient, limits.windowMs, limits.tableSize);
    this.overall = new FailureCounter(limits.overall, limits.windowMs, 1);
  }

  /** Counts the attempt, or answers why it may not be made now (and for how many seconds). */
  begin(address: string | null, clientIp: string): Attempt | AttemptRefusal {
    const client = clientKeyOf(clientIp);
    const now = Date.now();
    const blocked =
      refusal('address', address === null ? 0 : this.byAddress.blockedFor(address, now)) ??
      refusal('client', this.byClient.blockedFor(client, now)) ??
      refusal('overall', this.overall.blockedFor('', now));
    if (blocked) return blocked;
    const noRoomForAddress = refusal('address', address === null ? 0 : this.byAddress.add(address, now));
    if (noRoomForAddress) return noRoomForAddress;
    const noRoomForClient = refusal('client', this.byClient.add(client, now));
    if (noRoomForClient) {
      if (address !== null) this.byAddress.refund(address, now);
      return noRoomForClient;
    }
    this.overall.add('', now);
    const undo = () => {
      if (address !== null) this.byAddress.refund(address);
      this.byClient.refund(client);
      this.overall.refund('');
    };
    return {
      succeeded: () => {
        undo();
        // The address's owner proved who they are: earlier mistakes no longer count against them.
        if (address !== null) this.byAddress.clear(address);
      },
      abandoned: undo,
    };
  }
}

const refusal = (refusedBy: AttemptRefusal['refusedBy'], retryAfter: number): AttemptRefusal | null =>
  retryAfter > 0 ? { refusedBy, retryAfter } : null;

export const isRefusal = (a: Attempt | AttemptRefusal): a is AttemptRefusal => 'refusedBy' in a;

/**
 * The key a client is counted under: its IPv4 address, or the /64 of an IPv6 one (one host
 * usually holds a whole /64, so counting single addresses would give it billions of budgets).
 */
export function clientKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${(addr as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
