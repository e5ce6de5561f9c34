import {
  getOperationAST,
  getVariableValues,
  parse,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ParseOptions,
  type Source,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
// The package's ESM build imports graphql's .mjs files, a second copy of graphql beside the
// CommonJS one everything else here loads; its CommonJS build shares ours.
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity/cjs';
import type { Config } from '../config/index.js';
import { allowListRule, loadAllowList, type AllowList } from './allowlist.js';
import { refusal } from './refusal.js';

/**
 * What a GraphQL document may ask for on /graphql and /graphql/stream, checked before anything
 * runs. /v1 builds its own documents (sofa) and executes them directly, so none of this applies
 * there.
 */
export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxTokens: number;
  introspection: boolean;
  allowList: AllowList | null;
}

type LimitSettings = Pick<
  Config,
  'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_COST' | 'GRAPHQL_MAX_ALIASES' | 'GRAPHQL_MAX_TOKENS' | 'GRAPHQL_INTROSPECTION' | 'GRAPHQL_ALLOWLIST'
>;

export function limitsFromConfig(config: LimitSettings): GraphQLLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxCost: config.GRAPHQL_MAX_COST,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    introspection: config.GRAPHQL_INTROSPECTION,
    allowList: config.GRAPHQL_ALLOWLIST ? loadAllowList(config.GRAPHQL_ALLOWLIST, config.GRAPHQL_MAX_TOKENS) : null,
  };
}

function reportTo(ctx: ValidationContext | null, error: GraphQLError) {
  // graphql-armor words its refusals as syntax errors; they are not.
  ctx?.reportError(refusal(error.message.replace(/^Syntax Error: /, '')));
}

/** The schema is only reachable through these two; `__typename` tells nothing beyond a type's name. */
const noIntrospection: ValidationRule = (ctx) => ({
  Field(node) {
    if (node.name.value === '__schema' || node.name.value === '__type') {
      ctx.reportError(refusal('GraphQL introspection is disabled on this server.', node));
    }
  },
});

/** The validation rules both endpoints add to GraphQL's own. */
export function validationRules(limits: GraphQLLimits): ValidationRule[] {
  // Rejections are reported, not thrown: a throw inside validation is a 500 in Apollo.
  const reporting = { propagateOnRejection: false, onReject: [reportTo] };
  return [
    // Fragments add no depth of their own: what counts is how deep the result nests.
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...reporting }),
    maxAliasesRule({ n: limits.maxAliases, ...reporting }),
    ...(limits.introspection ? [] : [noIntrospection]),
    ...(limits.allowList ? [allowListRule(limits.allowList)] : []),
  ];
}

/** graphql-js counts tokens while it parses and stops at the limit, before building the rest. */
export function parseWithLimit(limits: GraphQLLimits) {
  return (source: string | Source, options?: ParseOptions): DocumentNode =>
    parse(source, { ...options, maxTokens: limits.maxTokens });
}

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
 * document costs more than the send it guards (about 100 µs), so an operation found within the
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
