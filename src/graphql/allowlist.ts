import { readFileSync } from 'node:fs';
import { parse, print, type DocumentNode, type GraphQLError, type ValidationRule } from 'graphql';
import { refusal } from './refusal.js';

/**
 * Persisted operations: with GRAPHQL_ALLOWLIST set, only the documents it lists run on /graphql
 * and /graphql/stream. Clients send either a listed id (APQ's `extensions.persistedQuery.
 * sha256Hash`) or the document itself; a document matches a listed one when both print the
 * same, so whitespace, commas and comments do not matter.
 */
export interface AllowList {
  /** id → document text, for requests that send only the id. */
  byId: Map<string, string>;
  /** Every listed document, printed. */
  printed: Set<string>;
}

interface ApolloManifest {
  format: 'apollo-persisted-query-manifest';
  operations: { id: string; body: string }[];
}

function entriesOf(json: unknown, file: string): [string, unknown][] {
  if (json && typeof json === 'object' && (json as ApolloManifest).format === 'apollo-persisted-query-manifest') {
    const operations = (json as ApolloManifest).operations;
    if (!Array.isArray(operations)) throw new Error(`GRAPHQL_ALLOWLIST: ${file} has no operations array`);
    return operations.map((op) => [String(op?.id), op?.body]);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`GRAPHQL_ALLOWLIST: ${file} must hold a JSON object of id → document, or an Apollo persisted query manifest`);
  }
  return Object.entries(json);
}

/**
 * Reads and checks the file once, at start: a broken list stops the service, naming the entry.
 * Listed documents meet the other limits like any other, the token limit included.
 */
export function loadAllowList(file: string, maxTokens: number): AllowList {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`GRAPHQL_ALLOWLIST: cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  const list: AllowList = { byId: new Map(), printed: new Set() };
  for (const [id, document] of entriesOf(json, file)) {
    if (typeof document !== 'string') throw new Error(`GRAPHQL_ALLOWLIST: entry ${id} is not a document string`);
    try {
      list.printed.add(print(parse(document, { maxTokens })));
    } catch (err) {
      throw new Error(`GRAPHQL_ALLOWLIST: entry ${id} does not parse: ${(err as Error).message}`);
    }
    // codegen's persisted documents name their ids `sha256:<hex>`; APQ sends the hex.
    list.byId.set(id.replace(/^sha256:/, ''), document);
  }
  return list;
}

/** Per parsed document, whether the console's operations hold it. */
const knownDocuments = new WeakMap<DocumentNode, boolean>();

/**
 * With SESSION_OPERATIONS=console, the refusal (400) of a document a console session sends that is
 * not one of the console's own operations (`known`), or null. API tokens are not held to it.
 */
export function sessionRefusal(
  limits: { sessionsKnownOnly: boolean; knownOperations: AllowList | null },
  document: DocumentNode,
  caller: { auth?: { sessionId?: string } | null } | undefined,
): GraphQLError | null {
  if (!limits.sessionsKnownOnly || !caller?.auth?.sessionId) return null;
  let known = knownDocuments.get(document);
  if (known === undefined) knownDocuments.set(document, (known = !!limits.knownOperations?.printed.has(print(document))));
  return known ? null : refusal("Console sessions may run only the console's own operations on this server (SESSION_OPERATIONS).");
}

export function allowListRule(list: AllowList): ValidationRule {
  return (ctx) => ({
    Document(node) {
      if (!list.printed.has(print(node))) ctx.reportError(refusal('This operation is not on the allow-list of persisted operations.'));
    },
  });
}
