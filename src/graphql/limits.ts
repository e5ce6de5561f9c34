import {
  BREAK,
  getOperationAST,
  getVariableValues,
  Kind,
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
import { toGraphQLError } from './errors.js';
import { errors, label, msg, type AppError } from '../core/errors.js';
import { JSON_SHAPE_LIMITS, type JsonShapeLimits } from '../lib/json-shape.js';

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
  /** Who may ask for the schema: anyone, a caller with a credential, or nobody (GRAPHQL_INTROSPECTION). */
  introspection: 'public' | 'authenticated' | 'off';
  /** Whether an unknown field's error says "Did you mean ...?": in development only (NODE_ENV). */
  suggestions: boolean;
  allowList: AllowList | null;
}

type LimitSettings = Pick<
  Config,
  'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_COST' | 'GRAPHQL_MAX_ALIASES' | 'GRAPHQL_MAX_TOKENS' | 'GRAPHQL_INTROSPECTION' | 'GRAPHQL_ALLOWLIST' | 'NODE_ENV'
>;

export function limitsFromConfig(config: LimitSettings): GraphQLLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxCost: config.GRAPHQL_MAX_COST,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    introspection: config.GRAPHQL_INTROSPECTION,
    // Suggestions name fields a stranger could not otherwise list (test/graphql/introspection.test.ts).
    suggestions: config.NODE_ENV === 'development',
    allowList: config.GRAPHQL_ALLOWLIST ? loadAllowList(config.GRAPHQL_ALLOWLIST, config.GRAPHQL_MAX_TOKENS) : null,
  };
}

function reportTo(ctx: ValidationContext | null, error: GraphQLError) {
  // graphql-armor words its refusals as syntax errors; they are not.
  ctx?.reportError(refusal(error.message.replace(/^Syntax Error: /, '')));
}

/** The schema is only reachable through these two; `__typename` tells nothing beyond a type's name. */
const isIntrospectionField = (name: string) => name === '__schema' || name === '__type';

/** GRAPHQL_INTROSPECTION=off: no document that asks for the schema runs, whoever sends it. */
const noIntrospection: ValidationRule = (ctx) => ({
  Field(node) {
    if (isIntrospectionField(node.name.value)) {
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
    ...(limits.introspection === 'off' ? [noIntrospection] : []),
    ...(limits.allowList ? [allowListRule(limits.allowList)] : []),
  ];
}

/** Whether a document asks for the schema anywhere (fragments included), per parsed document. */
const introspecting = new WeakMap<DocumentNode, boolean>();
function asksForSchema(document: DocumentNode): boolean {
  let found = introspecting.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Field(node) {
        if (isIntrospectionField(node.name.value)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    introspecting.set(document, found);
  }
  return found;
}

/**
 * The 401 for a caller without a credential who asks for the schema while introspection is for
 * authenticated callers, or null. Runs once the context is known (validation rules never see it);
 * with introspection off, validation has refused the document already.
 */
export function introspectionRefusal(limits: GraphQLLimits, document: DocumentNode, caller: { auth: unknown; operator: boolean } | undefined): GraphQLError | null {
  if (limits.introspection !== 'authenticated' || caller?.auth || caller?.operator) return null;
  return asksForSchema(document) ? toGraphQLError(errors.unauthenticated()) : null;
}

/**
 * A message without the " Did you mean ...?" graphql-js appends to it. Validation errors lose
 * theirs in the servers' own plugins; this covers the ones execution raises (a variable's unknown
 * input field or enum value). graphql-js always appends it last, and a variable's message quotes
 * the caller's value, so the last occurrence is cut, in one pass whatever the message holds.
 */
export function withoutSuggestion(message: string): string {
  if (!message.endsWith('?')) return message;
  const at = message.lastIndexOf(' Did you mean ');
  return at < 0 ? message : message.slice(0, at);
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

/** Characters of one key shown in a refused variable's path, and of the whole path. */
const KEY_SHOWN = 40;
const PATH_SHOWN = 200;

function pathShown(path: readonly (string | number)[]): string {
  const text = path.map((p) => (typeof p === 'string' && p.length > KEY_SHOWN ? `${p.slice(0, KEY_SHOWN)}…` : String(p))).join('.');
  return text.length > PATH_SHOWN ? `${text.slice(0, PATH_SHOWN)}…` : text;
}

/**
 * The first limit of lib/json-shape.ts the variables break, or null: the walk stops there, and
 * goes no deeper than the depth limit, so its own recursion is bounded.
 */
function variablesShapeProblem(variables: Record<string, unknown>, limits: JsonShapeLimits): AppError | null {
  let values = 0;
  const path: (string | number)[] = ['variables'];
  const walk = (value: unknown): AppError | null => {
    if (++values > limits.maxValues) return errors.payloadTooLarge(`The variables hold more than ${limits.maxValues} values.`);
    if (value === null || typeof value !== 'object') return null;
    const field = () => pathShown(path);
    if (path.length > limits.maxDepth) return errors.invalid(field(), `The ${label(field())} may not be nested more than ${limits.maxDepth} levels deep.`);
    const list = Array.isArray(value);
    if (list && value.length > limits.maxArrayItems) return errors.invalid(field(), msg.maxItems(field(), limits.maxArrayItems));
    for (const key of list ? value.keys() : Object.keys(value)) {
      path.push(key);
      const problem = walk((value as Record<string | number, unknown>)[key]);
      path.pop();
      if (problem) return problem;
    }
    return null;
  };
  return walk(variables);
}

/** The items a root field's argument allows by its own rule (`@MaxItems`), when it has one. */
export type MaxItemsOf = (field: string, argument: string) => number | undefined;

/**
 * The refusal for variables holding longer lists than they may, or null. graphql-js coerces every
 * item of a list variable before any rule of the argument runs (`@MaxItems` is checked after
 * coercion), so lists are measured here, before execution: no list may be longer than a request
 * body's may (lib/json-shape.ts; a body the server parsed is bound already, but variables also
 * come from a GET's query string), and a list given to a root field's argument may not be longer
 * than that argument's own rule allows, refused with the rule's own message.
 * Guarded by test/graphql/variables.test.ts.
 */
export function variablesRefusal(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  maxItemsOf: MaxItemsOf,
): GraphQLError | null {
  if (!variables || typeof variables !== 'object') return null;
  const shape = variablesShapeProblem(variables, JSON_SHAPE_LIMITS);
  if (shape) return toGraphQLError(shape);
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation === 'subscription') return null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    for (const argument of selection.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) continue;
      const value = variables[argument.value.name.value];
      if (!Array.isArray(value)) continue;
      const name = argument.name.value;
      const max = maxItemsOf(selection.name.value, name);
      if (max !== undefined && value.length > max) return toGraphQLError(errors.invalid(name, msg.maxItems(name, max)));
    }
  }
  return null;
}
