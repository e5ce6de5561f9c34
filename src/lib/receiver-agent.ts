import type { LookupFunction, Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { Dns } from './dns.js';
import { refusal } from './public-address.js';

/** A failure raised before any response (DNS, SSRF): it carries whether a retry could help. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/**
 * The socket's address lookup, through the service's resolver. The check runs on the very
 * addresses handed to connect(), so a name that resolved publicly a moment ago and now points
 * at loopback (DNS rebinding) is refused: there is no second resolution to win a race against.
 * A kept-alive connection stays bound to the address checked when it was opened.
 */
function guardedLookup(dns: Dns, allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    dns
      .a(hostname)
      .then((addresses) => {
        if (!addresses.length) throw new CallError(`DNS: no address for ${hostname}`, true);
        const usable = allowPrivate ? addresses : addresses.filter((a) => !refusal(a));
        if (!usable.length) throw new CallError(refusal(addresses[0])!, true);
        if (options?.all) callback(null, usable.map((address) => ({ address, family: 4 })));
        else callback(null, usable[0], 4);
      })
      .catch((err: unknown) => {
        callback(err instanceof CallError ? err : new CallError(`DNS: ${(err as Error).message} for ${hostname}`, true));
      });
  }) as LookupFunction;
}

/** Waiters for one origin's connections. */
interface Slots {
  busy: number;
  waiting: Array<() => void>;
}

/**
 * Kept-alive connections to webhook receivers: one undici Agent (a pool per origin, at most
 * `connections` sockets each) whose connector resolves through the guarded lookup and checks the
 * address it actually connected to, plus a slot count per origin equal to that bound, so a
 * request's timeout starts when it has a connection, not while it queues behind the origin's others.
 */
export class ReceiverAgent {
  readonly dispatcher: Agent;
  private readonly slots = new Map<string, Slots>();

  constructor(
    dns: Dns,
    allowPrivate: boolean,
    private readonly connections: number,
    connectTimeoutMs: number,
  ) {
    const connector = buildConnector({ lookup: guardedLookup(dns, allowPrivate), timeout: connectTimeoutMs });
    this.dispatcher = new Agent({
      connections,
      pipelining: 1,
      connect: (options, callback) => {
        connector(options, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('no socket'), null);
          // Literal IPs skip the lookup: what matters is where the socket went.
          const why = allowPrivate ? null : refusal((socket as Socket).remoteAddress ?? '');
          if (!why) return callback(null, socket);
          socket.destroy();
          callback(new CallError(why, true), null);
        });
      },
    });
  }

  /**
   * One of the origin's connections: the function that gives it back, at once when one is free
   * (no promise: this runs once per request), or a promise of it when all are taken.
   */
  slot(origin: string): (() => void) | Promise<() => void> {
    let s = this.slots.get(origin);
    if (!s) this.slots.set(origin, (s = { busy: 0, waiting: [] }));
    const slots = s;
    if (slots.busy < this.connections) {
      slots.busy++;
      return this.releaser(origin, slots);
    }
    return new Promise<() => void>((resolve) => slots.waiting.push(() => resolve(this.releaser(origin, slots))));
  }

  private releaser(origin: string, slots: Slots): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slots.waiting.shift();
      // The slot passes straight to the next waiter; busy only drops when nobody waits.
      if (next) return next();
      slots.busy--;
      if (slots.busy === 0) this.slots.delete(origin);
    };
  }
}

/**
 * One agent per resolver and policy: the service has one of each; tests pass their own scripted
 * resolvers, which must not share connections opened under another's answers.
 */
const agents = new WeakMap<Dns, Map<string, ReceiverAgent>>();

/** The agent asked for last, with what it was asked for (one resolver and policy in the service). */
let lastAgent: { dns: Dns; allowPrivate: boolean; connections: number; timeoutMs: number; agent: ReceiverAgent } | null = null;

export function receiverAgent(dns: Dns, allowPrivate: boolean, connections: number, timeoutMs: number): ReceiverAgent {
  // Asked once per request, almost always with what was asked last.
  const last = lastAgent;
  if (last && last.dns === dns && last.allowPrivate === allowPrivate && last.connections === connections && last.timeoutMs === timeoutMs) return last.agent;
  const agent = agentFor(dns, allowPrivate, connections, timeoutMs);
  lastAgent = { dns, allowPrivate, connections, timeoutMs, agent };
  return agent;
}

function agentFor(dns: Dns, allowPrivate: boolean, connections: number, timeoutMs: number): ReceiverAgent {
  let byPolicy = agents.get(dns);
  if (!byPolicy) agents.set(dns, (byPolicy = new Map()));
  const key = `${allowPrivate}:${connections}:${timeoutMs}`;
  let agent = byPolicy.get(key);
  if (!agent) byPolicy.set(key, (agent = new ReceiverAgent(dns, allowPrivate, connections, timeoutMs)));
  return agent;
}
