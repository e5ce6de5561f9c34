import type { Logger } from 'pino';
import { Slots } from '../../lib/slots.js';
import { asksToSlowDown, type Site, type SiteTable } from '../../lib/shaping.js';
import { siteHeld, siteSlowDowns } from '../../lib/metrics.js';
import type { DeliverySiteRepository } from './delivery-site.repository.js';

/**
 * An email not sent now because its site's pace does not allow it: put off until `until`, which
 * is not a delivery attempt (the delivery engine queues its message again for then).
 */
export class HeldMailError extends Error {
  constructor(
    readonly until: Date,
    readonly site: string,
  ) {
    super(`the destination ${site} is paced; the email is sent later`);
  }
}

/** How far ahead a permit is waited for in the process, rather than the message put off. */
const AHEAD_SECONDS = 1;
/** How often suspensions set by other workers are read, for sites with no rate of their own. */
const SUSPENSIONS_EVERY_MS = 2000;
/** Sites whose connections or put-off times this process keeps; past it, the idle ones are forgotten. */
const SITES_KEPT = 10_000;
/** How often the shared rows of sites idle for a day are deleted (by each process, at most). */
const FORGET_EVERY_MS = 3_600_000;

export interface ShaperOptions {
  table: SiteTable;
  /** The shared pace, on a fresh entity manager per call. */
  sites: () => DeliverySiteRepository;
  /** DELIVERY_SLOWDOWN_SECONDS: the first suspension after a slow-down answer. */
  slowdownSeconds: number;
  log: Logger;
}

/**
 * The pace of each destination site in this process (lib/shaping.ts): its connections at once
 * (here), and, shared by every worker through PostgreSQL (delivery-site.repository.ts), its
 * rates and the slow-downs its servers asked for. A message that would wait longer than a second
 * for its turn is put off (HeldMailError) instead of holding a delivery slot, so a slow site
 * never holds up the others. Guarded by test/mail/shaping.test.ts and bench:shaping.
 */
export class SiteShaper {
  private readonly connections = new Map<string, Slots>();
  /** Per site, the latest time a message was put off to: the next one goes a spacing later. */
  private readonly horizon = new Map<string, number>();
  private suspensions = new Map<string, Date>();
  private suspensionsRead = 0;
  private reading: Promise<void> | null = null;
  private forgotten = 0;

  constructor(private readonly opts: ShaperOptions) {}

  siteOf(hosts: readonly string[]): Site {
    return this.opts.table.siteOf(hosts);
  }

  /**
   * Waits for the site's next permit when it comes within a second, or throws HeldMailError
   * with when to try again. A site without rates asks the database nothing here: only its
   * suspensions, read every two seconds for all sites at once.
   */
  async admit(site: Site, source: string): Promise<void> {
    const key = `${site.name}|${source}`;
    const { per_minute, per_hour } = site.limits;
    if (per_minute === null && per_hour === null) {
      const until = await this.suspendedUntil(key);
      if (until) throw this.held(site, key, until, 'suspended');
      return;
    }
    const permit = await this.opts.sites().admit(site.name, source, {
      minute: per_minute === null ? null : 60 / per_minute,
      hour: per_hour === null ? null : 3600 / per_hour,
      aheadSeconds: AHEAD_SECONDS,
      slowdownSeconds: this.opts.slowdownSeconds,
    });
    if (!permit.admitted) throw this.held(site, key, permit.until, permit.suspended ? 'suspended' : 'rate');
    if (permit.waitMs > 0) await new Promise((r) => setTimeout(r, permit.waitMs));
  }

  /** Runs a send within the site's connections of this process. */
  within<T>(site: Site, source: string, send: () => Promise<T>): Promise<T> {
    const key = `${site.name}|${source}`;
    let slots = this.connections.get(key);
    if (!slots) {
      if (this.connections.size >= SITES_KEPT) for (const [k, s] of this.connections) if (s.idle) this.connections.delete(k);
      this.connections.set(key, (slots = new Slots(site.limits.connections)));
    }
    return slots.run(send);
  }

  /** A temporary refusal from the site: when it asks to slow down, the whole site slows, for every worker. */
  async refused(site: Site, source: string, response: string): Promise<void> {
    if (!asksToSlowDown(response)) return;
    const until = await this.opts.sites().slowDown(site.name, source, this.opts.slowdownSeconds);
    if (!until) return;
    siteSlowDowns.inc({ site: site.label });
    this.suspensions.set(`${site.name}|${source}`, until);
    this.opts.log.warn({ site: site.name, source: source || 'default', until, response: response.slice(0, 200) }, 'delivery site asked to slow down; suspended');
  }

  /**
   * The time a held message is put off to: the site's own answer, or a spacing after the last
   * message put off, so the messages held come back at the site's pace rather than all at once.
   */
  private held(site: Site, key: string, until: Date, why: 'rate' | 'suspended'): HeldMailError {
    siteHeld.inc({ site: site.label, why });
    const { per_minute, per_hour } = site.limits;
    const spacingMs = Math.max(per_minute ? 60_000 / per_minute : 0, per_hour ? 3_600_000 / per_hour : 0);
    const last = this.horizon.get(key) ?? 0;
    const at = Math.max(until.getTime(), last > Date.now() ? last + spacingMs : 0);
    if (this.horizon.size >= SITES_KEPT) for (const [k, t] of this.horizon) if (t <= Date.now()) this.horizon.delete(k);
    this.horizon.set(key, at);
    return new HeldMailError(new Date(at), site.name);
  }

  private async suspendedUntil(key: string): Promise<Date | null> {
    if (Date.now() - this.forgotten > FORGET_EVERY_MS) {
      this.forgotten = Date.now();
      void this.opts
        .sites()
        .forgetIdle(this.opts.slowdownSeconds * 10)
        .catch((err: unknown) => this.opts.log.warn({ err: (err as Error).message }, 'idle delivery sites not deleted'));
    }
    if (Date.now() - this.suspensionsRead > SUSPENSIONS_EVERY_MS) {
      this.reading ??= this.opts
        .sites()
        .suspended()
        .then(
          (found) => {
            this.suspensions = found;
          },
          // The suspensions known stay; the next read is tried in two seconds.
          (err: unknown) => this.opts.log.warn({ err: (err as Error).message }, 'delivery site suspensions not read'),
        )
        .finally(() => {
          this.suspensionsRead = Date.now();
          this.reading = null;
        });
      await this.reading;
    }
    const until = this.suspensions.get(key);
    return until && until.getTime() > Date.now() ? until : null;
  }
}
