import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Ctx } from './context.js';

/**
 * graphql's `subscribe`, but each event is executed once for every listener that would get the
 * same answer, not once per listener: listeners of one process are handed the same event object
 * (lib/pubsub.ts `listen`), and two subscriptions with the same document, operation, variables and
 * caller's access (account, scopes, domains, templates, plan, user) resolve it to the same result.
 * That result is shared; each listener's stream still has its own queue (live-queue.ts), so one
 * slow listener holds back no other. Only what executes is shared: a caller's access is part of
 * the group, so no listener gets what its own access would not resolve (bench:subscriptions and
 * test/graphql/live-streams.test.ts check that each listener hears only its own).
 */
export async function sharedSubscribe(args: ExecutionArgs): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isStream(source)) return source;
  const group = groupOf(args);
  const events = source[Symbol.asyncIterator]();
  const run = (payload: unknown) => execute({ ...args, rootValue: payload }) as ExecutionResult | Promise<ExecutionResult>;
  const results: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => results,
    async next() {
      const event = await events.next();
      if (event.done) return { value: undefined, done: true };
      return { value: await resultOf(event.value, group, run), done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(err: unknown) {
      await events.return?.();
      throw err;
    },
  };
  return results;
}

const isStream = (x: AsyncIterable<unknown> | ExecutionResult): x is AsyncIterable<unknown> => Symbol.asyncIterator in x;

/** Per event, the result of each group that executed it; dropped with the event. */
const executed = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

function resultOf(payload: unknown, group: string | null, run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>): Promise<ExecutionResult> {
  // The marker of a stream that fell behind is a symbol: its own error event, never shared.
  if (group === null || payload === null || typeof payload !== 'object') return Promise.resolve(run(payload));
  let byGroup = executed.get(payload);
  if (!byGroup) executed.set(payload, (byGroup = new Map()));
  let result = byGroup.get(group);
  if (!result) byGroup.set(group, (result = Promise.resolve(run(payload)).then(serializedOnce)));
  return result;
}

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
