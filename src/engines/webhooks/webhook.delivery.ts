import type { KeyObject } from 'node:crypto';
import { webhookAttempts, webhookAttemptSeconds } from '../../lib/metrics.js';
import { decrypt } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { postWebhookThen } from '../../lib/webhook-http.js';
import { recordRound, type Outcome } from './round.record.js';
import { signatureHeaders, signingKey } from '../../lib/webhook-signature.js';
import { EngineRepository } from './dispatch.repository.js';
import { isFresh, type FreshDelivery } from './lease.repository.js';
import type { Claimed } from '../../modules/webhooks/webhook.repository.js';

/**
 * Deliveries claimed per round: a few times what is in flight, so one claim and one record
 * statement cover many attempts. The next round is claimed when half of this one is left.
 */
export function claimBatch(inFlight: number): number {
  return inFlight * 4;
}

/**
 * A lease that is not renewed (an inbound forward's attempts, made while the sender waits): twice
 * the longest the `ahead` deliveries and its own can take when every request runs into the
 * timeout, `inFlight` at a time, each up to the timeout plus a second to record.
 */
export function leaseMs(timeoutMs: number, inFlight: number, ahead: number): number {
  return 2 * (Math.ceil(ahead / inFlight) + 1) * (timeoutMs + 1000);
}

/**
 * Signing keys by their sealed secret: decrypting costs more than signing, and a round holds
 * many deliveries of few webhooks. A new secret (a new sealed value) is simply a new entry.
 */
const keys = new Map<string, KeyObject>();
function keyOf(appSecret: string, sealed: string): KeyObject {
  let key = keys.get(sealed);
  if (key === undefined) {
    if (keys.size >= 1000) keys.clear();
    key = signingKey(decrypt(appSecret, sealed));
    keys.set(sealed, key);
  }
  return key;
}

/* The counter's two series, found once: inc({ result }) hashes its labels on every call. */
const attemptsDelivered = webhookAttempts.labels('delivered');
const attemptsFailed = webhookAttempts.labels('failed');

/**
 * One signed POST of a claimed delivery; its outcome is recorded with the round's. Inbound
 * email forwards call it too, for the first attempt made while the sender waits.
 */
export function attempt(services: AppServices, d: Claimed): Promise<Outcome> {
  return new Promise((resolve) => attemptThen(services, d, resolve));
}

/**
 * attempt for the conveyor: `done` gets the outcome (never during this call), with no promise
 * made per request. Throws, before anything is sent, when the webhook's secret cannot be read.
 */
function attemptThen(services: AppServices, d: Claimed, done: (outcome: Outcome) => void): void {
  const { config } = services;
  const at = new Date();
  // The same id on every retry (receivers de-duplicate on it); a fresh timestamp and signatures.
  const headers = signatureHeaders(keyOf(config.APP_SECRET, d.secret_enc), d.body, d.id, at);
  postWebhookThen(
    {
      url: d.url,
      body: d.body,
      headers,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      dns: services.dns,
      connectionsPerOrigin: config.WEBHOOK_CONNECTIONS_PER_ORIGIN,
    },
    (result) => {
      (result.ok ? attemptsDelivered : attemptsFailed).inc();
      webhookAttemptSeconds.observe(result.durationMs / 1000);
      done({ claimed: d, at, result });
    },
  );
}

/**
 * One batch of deliveries (claimed, or fresh from the dispatcher): recorded once all its
 * attempts are done, with its fresh deliveries whose attempt could not start (written pending).
 */
interface Round {
  left: number;
  outcomes: Outcome[];
  unstarted: FreshDelivery[];
}

/** Lapsed dispatch leases turned into due deliveries per tick (each up to a dispatch batch of deliveries). */
const RECOVER_BATCHES = 20;

/** Attempts recorded by one record at most (round.record.ts: one statement for its successes). */
const RECORD_MAX = 1000;

/**
 * The delivery line of one tick: batches of claimed deliveries go in (add), WEBHOOK_IN_FLIGHT
 * requests are in flight at any time across batches, and each batch is recorded (round.record.ts) as
 * soon as its last attempt is done (once `drain` is called, each attempt as soon as it is done),
 * one record after another, while later batches post; batches that finish while a record runs
 * are recorded together by the next, so a record that falls behind the posts (PostgreSQL busy)
 * catches up with fewer, larger statements instead of leaving a queue of small ones for the end
 * of the tick. `add` returns while two rounds or less are waiting, so the callers (two dispatch
 * lanes, or the claim) fetch the next batch while these post: a dispatch slowed by a busy
 * database does not leave the connections idle.
 */
export class Conveyor {
  private readonly queue: Array<{ d: Claimed; round: Round }> = [];
  private active = 0;
  /** Outcomes of finished rounds no record has taken yet, and their fresh deliveries that could not be attempted. */
  private done: Outcome[] = [];
  private unstarted: FreshDelivery[] = [];
  private recorder: Promise<void> | null = null;
  /** Rounds with attempts still to finish (what `drain` records without waiting for). */
  private readonly open = new Set<Round>();
  private draining = false;
  private pumping = false;
  private readonly inFlight: number;
  private readonly lowWater: number;
  private wake: Array<() => void> = [];

  /** Deliveries added and not yet recorded: their leases are renewed while this conveyor holds them. */
  private readonly held = new Map<string, Claimed>();
  private readonly renewal: NodeJS.Timeout;

  constructor(private readonly services: AppServices) {
    this.inFlight = services.config.WEBHOOK_IN_FLIGHT;
    this.lowWater = claimBatch(this.inFlight) * 2;
    this.renewal = setInterval(() => void this.renew(), (services.config.WORKER_LEASE_SECONDS * 1000) / 3);
    this.renewal.unref();
  }

  /**
   * Until when deliveries taken now are leased (WORKER_LEASE_SECONDS): another worker skips them
   * meanwhile. The conveyor renews the leases of what it holds every third of that, however long
   * they wait for their turn, so when this worker dies or freezes they are due again within a
   * lease, for any worker's next tick (test/webhooks/takeover.test.ts).
   */
  lease(): Date {
    return new Date(Date.now() + this.services.config.WORKER_LEASE_SECONDS * 1000);
  }

  private async renew(): Promise<void> {
    if (!this.held.size) return;
    const held = [...this.held.values()];
    const leases = new Set(held.filter(isFresh).map((d) => d.lease.id));
    const claimed = held.filter((d) => !isFresh(d)).map((d) => d.id);
    try {
      const repo = await EngineRepository.of(this.services.orm.em);
      await repo.leases.renew(this.lease(), claimed, [...leases]);
    } catch (err) {
      this.services.log.warn({ err: (err as Error).message }, 'webhook delivery leases not renewed');
    }
  }

  async add(claimed: Claimed[]): Promise<void> {
    if (!claimed.length) return;
    const round: Round = { left: claimed.length, outcomes: [], unstarted: [] };
    this.open.add(round);
    for (const d of claimed) {
      this.held.set(d.id, d);
      this.queue.push({ d, round });
    }
    this.pump();
    while (this.queue.length > this.lowWater) await new Promise<void>((resolve) => this.wake.push(resolve));
  }

  /**
   * Nothing more comes from the dispatcher: from now on each attempt is recorded as soon as it is
   * done (with whatever else is done by then), not with the rest of its round. A round waits for
   * its last attempt so that one statement records many; at the end of a tick that made the last
   * answer wait for the record of its whole round (a few milliseconds for 200), where now it waits
   * for what finished during the record before it.
   */
  drain(): void {
    this.draining = true;
    for (const round of this.open) this.collect(round);
  }

  /** Resolves once every delivery added is attempted and recorded. */
  async finish(): Promise<void> {
    while (this.active || this.queue.length) await new Promise<void>((resolve) => this.wake.push(resolve));
    while (this.recorder) await this.recorder;
    clearInterval(this.renewal);
  }

  private pump(): void {
    // A delivery that cannot start ends inside post(), which pumps again: that pump leaves the
    // queue to this loop.
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.active < this.inFlight && this.queue.length) {
        const { d, round } = this.queue.shift()!;
        this.active++;
        this.post(d, round);
      }
    } finally {
      this.pumping = false;
    }
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }

  /** One attempt, on callbacks rather than promises: the conveyor runs tens of thousands a second. */
  private post(d: Claimed, round: Round): void {
    try {
      attemptThen(this.services, d, (outcome) => {
        round.outcomes.push(outcome);
        this.ended(round);
      });
    } catch (err) {
      // A secret that no longer decrypts: the lease makes it due again later; the others go on.
      this.services.log.error({ err, delivery: d.id }, 'webhook delivery could not be attempted');
      // A fresh one is not written yet: it is written pending, due when the lease ends.
      if (isFresh(d)) round.unstarted.push(d);
      else this.held.delete(d.id);
      this.ended(round);
    }
  }

  /** An attempt of `round` is over (done, or could not start): its slot goes to the next. */
  private ended(round: Round): void {
    if (--round.left === 0) this.open.delete(round);
    if (round.left === 0 || this.draining) this.collect(round);
    this.active--;
    this.pump();
  }

  /**
   * Hands what a round has finished to the recorder. A round of claimed deliveries none of which
   * could start has nothing to record (their lease brings them back).
   */
  private collect(round: Round): void {
    if (!round.outcomes.length && !round.unstarted.length) return;
    for (const o of round.outcomes.splice(0)) this.done.push(o);
    for (const f of round.unstarted.splice(0)) this.unstarted.push(f);
    // record() awaits before it can end (`done` is not empty), so it clears `recorder` after this.
    this.recorder ??= this.record();
  }

  /**
   * Records run one at a time, in the order rounds finish, each taking every round finished so
   * far; one that fails (its deliveries stay leased, so they are attempted again) does not stop
   * the next.
   */
  private async record(): Promise<void> {
    while (this.done.length || this.unstarted.length) {
      const outcomes = this.done.splice(0, RECORD_MAX);
      const unstarted = this.unstarted.splice(0);
      // No longer renewed: the record sets when each is due next (a renewal must not move that).
      for (const o of outcomes) this.held.delete(o.claimed.id);
      for (const d of unstarted) this.held.delete(d.id);
      try {
        await recordRound(this.services, outcomes, unstarted);
      } catch (err) {
        this.services.log.error({ err }, 'webhook round could not be recorded');
      }
    }
    this.recorder = null;
  }
}

/**
 * Attempts due deliveries until none is due or the time budget is spent; returns how many were
 * claimed. Each claim takes a round (one statement) into the conveyor, and the next is claimed
 * while that one posts. Everything claimed is attempted and recorded when this returns.
 */
export async function deliverDue(services: AppServices, budgetMs = 20_000, conveyor = new Conveyor(services)): Promise<number> {
  const batch = claimBatch(services.config.WEBHOOK_IN_FLIGHT);
  const stop = Date.now() + budgetMs;
  let total = 0;
  const repo = await EngineRepository.of(services.orm.em);
  try {
    // Batches a dead worker left unwritten become due deliveries first, claimed below.
    await repo.leases.recoverLeases(new Date(), RECOVER_BATCHES).catch((err: unknown) => {
      services.log.error({ err }, 'lapsed webhook dispatch leases could not be recovered');
    });
    for (;;) {
      const claimed = await repo.claimDue(new Date(), conveyor.lease(), batch);
      total += claimed.length;
      await conveyor.add(claimed);
      if (claimed.length < batch || Date.now() > stop) return total;
    }
  } finally {
    await conveyor.finish();
  }
}
