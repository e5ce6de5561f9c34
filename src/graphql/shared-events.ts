import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Ctx } from './context.js';
import { FELL_BEHIND, LiveQueue } from './live-queue.js';

/**
 * graphql's `subscribe`, but each event is executed once for every listener that would get the
 * same answer, not once per listener: listeners of one process are handed the same event object
 * (lib/pubsub.ts `listen`), and two subscriptions with the same document, operation, variables and
 * caller's access (account, scopes, domains, templates, plan, user) resolve it to the same result.
 * That result is shared; each listener's stream still has its own bounded queue (its socket's
 * buffer when pushed, else live-queue.ts), so one slow listener holds back no other. Only what executes is shared: a caller's access is part of
 * the group, so no listener gets what its own access would not resolve (bench:subscriptions and
 * test/graphql/live-streams.test.ts check that each listener hears only its own).
 */
export async function sharedSubscribe(args: ExecutionArgs): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isStream(source)) return source;
  return new SharedStream(source, groupOf(args), (payload) => execute({ ...args, rootValue: payload }) as ExecutionResult | Promise<ExecutionResult>);
}

/** Who takes a stream's results as they come (SharedStream.pushTo). */
export interface ResultSink {
  result(result: ExecutionResult): void;
  /** No more results: the stream completed. */
  end(): void;
  /** A result could not be made: the stream cannot go on. */
  fail(err: unknown): void;
}

/**
 * One listener's results. Pulled (an async iterator, as graphql-js's `subscribe` answers) or,
 * when its events come from a LiveQueue, pushed to a sink (`pushTo`): each event then costs the
 * listener one promise reaction, not a chain of iterators (bench:subscriptions). Results are
 * handed over in the order of their events either way.
 */
export class SharedStream implements AsyncIterableIterator<ExecutionResult> {
  private readonly events: AsyncIterator<unknown>;
  /** Push mode: the results of the events handed over, in their order, not yet given to the sink. */
  private readonly pending: Shared[] = [];
  private waitingOn: Shared | null = null;
  private ended = false;
  private sink: ResultSink | null = null;

  constructor(
    source: AsyncIterable<unknown>,
    private readonly group: string | null,
    private readonly run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>,
  ) {
    this.events = source[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    const event = await this.events.next();
    if (event.done) return { value: undefined, done: true };
    const shared = sharedResultOf(event.value, this.group, this.run);
    await shared.ready;
    if (shared.error !== undefined) throw shared.error;
    return { value: shared.result!, done: false };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    await this.events.return?.();
    return { value: undefined, done: true };
  }

  async throw(err: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.events.return?.();
    throw err;
  }

  /** Whether its results can be pushed (`pushTo`): its events come from a LiveQueue. */
  get pushable(): boolean {
    return this.events instanceof LiveQueue;
  }

  /** Push mode (when `pushable`): each result handed to `sink` as soon as it and those before it are made. */
  pushTo(sink: ResultSink): void {
    if (!(this.events instanceof LiveQueue)) throw new Error('only a LiveQueue stream can be pushed');
    this.sink = sink;
    const queue = this.events as LiveQueue<unknown>;
    queue.attach({
      event: (payload) => {
        // Results not made yet count against the stream's bound too (a database that stalls).
        if (this.pending.length >= queue.limit && payload !== FELL_BEHIND) return queue.behind();
        this.pending.push(sharedResultOf(payload, this.group, this.run));
        this.flush();
      },
      end: () => {
        this.ended = true;
        this.flush();
      },
    });
  }

  /** Push mode: the sink's reader has more results unread than it may hold (LiveQueue.behind). */
  behind(): void {
    if (this.events instanceof LiveQueue) this.events.behind();
  }

  /** Hands the sink every result that is ready, in order; waits (one reaction) on the first that is not. */
  private flush(): void {
    const sink = this.sink!;
    while (this.pending.length) {
      const head = this.pending[0];
      if (!head.settled) {
        if (this.waitingOn !== head) {
          this.waitingOn = head;
          void head.ready.then(() => this.flush());
        }
        return;
      }
      this.pending.shift();
      if (head.error !== undefined) return sink.fail(head.error);
      sink.result(head.result!);
    }
    if (this.ended) {
      this.ended = false;
      sink.end();
    }
  }
}

/** An event's result for a group, shared by its listeners; `settled` once `ready` resolved. */
interface Shared {
  ready: Promise<void>;
  settled: boolean;
  result?: ExecutionResult;
  error?: unknown;
}

const isStream = (x: AsyncIterable<unknown> | ExecutionResult): x is AsyncIterable<unknown> => Symbol.asyncIterator in x;

/** Per event, the result of each group that executed it; dropped with the event. */
const executed = new WeakMap<object, Map<string, Shared>>();

function sharedResultOf(payload: unknown, group: string | null, run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>): Shared {
  // The marker of a stream that fell behind is a symbol: its own error event, never shared.
  if (group === null || payload === null || typeof payload !== 'object') return settle(run, payload);
  let byGroup = executed.get(payload);
  if (!byGroup) executed.set(payload, (byGroup = new Map()));
  let shared = byGroup.get(group);
  if (!shared) byGroup.set(group, (shared = settle(run, payload)));
  return shared;
}

function settle(run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>, payload: unknown): Shared {
  const shared: Shared = { ready: DONE, settled: false };
  let started: Promise<ExecutionResult>;
  try {
    started = Promise.resolve(run(payload));
  } catch (err) {
    started = Promise.reject(err);
  }
  shared.ready = started.then(
    (result) => {
      shared.result = serializedOnce(result);
      shared.settled = true;
    },
    (err: unknown) => {
      shared.error = err ?? new Error('subscription event failed');
      shared.settled = true;
    },
  );
  return shared;
}

const DONE = Promise.resolve();

/**
 * graphql-yoga writes a result with its `stringify` when it has one: a shared result is turned
 * into text once, not once per listener. Not enumerable, so it is never part of the text.
 */
function serializedOnce(result: ExecutionResult): ExecutionResult {
  let text: string | undefined;
  Object.defineProperty(result, 'stringify', {
    value: (value: unknown) => (value === result ? (text ??= JSON.stringify(result)) : JSON.stringify(value)),
    enumerable: false,
  });
  return result;
}

const documentIds = new WeakMap<DocumentNode, number>();
let documents = 0;

/** What a subscription's result depends on besides its event; null when nothing may be shared. */
function groupOf(args: ExecutionArgs): string | null {
  const auth = (args.contextValue as Ctx | undefined)?.auth;
  if (!auth) return null;
  let document = documentIds.get(args.document);
  if (document === undefined) documentIds.set(args.document, (document = ++documents));
  return [
    document,
    args.operationName ?? '',
    JSON.stringify(args.variableValues ?? {}),
    auth.accountId,
    [...auth.scopes].sort().join(' '),
    auth.domainId ?? '',
    (auth.domainIds ?? []).join(' '),
    (auth.templateIds ?? []).join(' '),
    (auth.permissions ?? []).join(' '),
    auth.plan ?? '',
    auth.userId ?? '',
  ].join('\u0001');
}
