import { getOperationAST, getVariableValues, visit, type ASTNode, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
// The package's ESM build imports graphql's .mjs files, a second copy of graphql beside the
// CommonJS one everything else here loads; its CommonJS build shares ours.
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity/cjs';
import type { GraphQLLimits } from './limits.js';
import { refusal } from './refusal.js';

/** Every list refuses a `limit` above this (SPEC.md Limits); a bigger one never runs. */
const MAX_PAGE = 100;

/** A field with a `limit` argument returns up to that many of what it selects. */
const pageEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  if (typeof args.limit !== 'number') return undefined;
  return 1 + childComplexity * Math.min(Math.max(args.limit, 0), MAX_PAGE);
};

const estimators = [pageEstimator, simpleEstimator({ defaultComplexity: 1 })];

/**
 * The cost of running one operation: each field 1, times the `limit` of each list around it.
 * Null when the variables do not fit the operation: execution refuses those with its own 400.
 */
export function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): number | null {
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return null;
  try {
    return getComplexity({
      schema,
      query: { ...document, definitions: document.definitions.filter((d) => d.kind !== 'OperationDefinition' || d === operation) },
      variables: variables ?? {},
      estimators,
    });
  } catch {
    // Only graphql-query-complexity's node ceiling throws once the variables fit: a document
    // that expands (through fragments) past 10,000 fields costs more than any limit.
    return Infinity;
  }
}

/**
 * The variables an operation's cost can depend on: those a `limit` argument or a directive
 * (`@skip(if: $x)`, `@include`) refers to, anywhere in the document. Every other variable (a
 * send's addresses and bodies) leaves the cost as it is.
 */
function costVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) =>
    visit(node, {
      Variable(v) {
        names.add(v.name.value);
      },
    });
  visit(document, {
    Argument(arg) {
      if (arg.name.value === 'limit') collect(arg.value);
    },
    Directive(directive) {
      collect(directive);
    },
  });
  return [...names].sort();
}

/** Costs within the limit, per document (the servers keep each parsed document as one object). */
interface CostMemo {
  variables: string[];
  allowed: Map<string, true>;
}
const memos = new WeakMap<DocumentNode, CostMemo>();
/** Distinct cost-relevant inputs remembered per document: a page size per list is a handful. */
const MEMO_ENTRIES = 64;

/**
 * The refusal for an operation costing more than the limit, or null when it may run. Walking the
 * document costs more than the send it guards (bench:sending), so an operation found within the
 * limit is remembered with the values of the variables its cost depends on: the same document
 * with the same such values costs the same. Only "may run" is remembered: a refusal, or variables
 * that do not fit (execution answers those), is worked out again each time.
 */
export function costRefusal(limits: GraphQLLimits, ...args: Parameters<typeof costOf>): GraphQLError | null {
  const [, document, operationName, variables] = args;
  let memo = memos.get(document);
  if (!memo) memos.set(document, (memo = { variables: costVariables(document), allowed: new Map() }));
  // A variable left out (its default applies) is told apart from one given as null.
  const key = JSON.stringify([operationName ?? null, ...memo.variables.map((v) => (variables && Object.hasOwn(variables, v) ? [variables[v]] : []))]);
  if (memo.allowed.has(key)) return null;
  const cost = costOf(...args);
  if (cost !== null && cost <= limits.maxCost && memo.allowed.size < MEMO_ENTRIES) memo.allowed.set(key, true);
  if (cost === null || cost <= limits.maxCost) return null;
  const found = Number.isFinite(cost) ? `, found ${cost}` : '';
  return refusal(`Query cost limit of ${limits.maxCost} exceeded${found}.`);
}
