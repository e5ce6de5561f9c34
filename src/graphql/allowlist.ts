import { readFileSync } from 'node:fs';
import { parse, print, type ValidationRule } from 'graphql';
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
    list.byId.set(id, document);
  }
  return list;
}

export function allowListRule(list: AllowList): ValidationRule {
  return (ctx) => ({
    Document(node) {
      if (!list.printed.has(print(node))) ctx.reportError(refusal('This operation is not on the allow-list of persisted operations.'));
    },
  });
}
