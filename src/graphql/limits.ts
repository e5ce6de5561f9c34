import { existsSync } from 'node:fs';
import { parse, type DocumentNode, type GraphQLError, type ParseOptions, type Source, type ValidationContext, type ValidationRule } from 'graphql';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import type { Config } from '../config/index.js';
import { allowListRule, loadAllowList, type AllowList } from './allowlist.js';
import { noIntrospection } from './limits-introspection.js';
import { refusal } from './refusal.js';

/**
 * What a GraphQL document may ask for on /graphql and /graphql/stream, checked before anything
 * runs. /v1 builds its own documents (sofa) and executes them directly, so none of this applies
 * there. The checks that need more than validation rules live beside this file, one kind of limit
 * each: limits-cost.ts, limits-variables.ts and limits-introspection.ts.
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
  /** The console's operations by id (its build's persisted-documents.json); null without a built console. */
  knownOperations: AllowList | null;
  /** Whether console sessions may run only those (SESSION_OPERATIONS=console). */
  sessionsKnownOnly: boolean;
}

type LimitSettings = Pick<
  Config,
  'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_COST' | 'GRAPHQL_MAX_ALIASES' | 'GRAPHQL_MAX_TOKENS' | 'GRAPHQL_INTROSPECTION' | 'GRAPHQL_ALLOWLIST' | 'NODE_ENV' | 'SESSION_OPERATIONS'
>;

/** `consoleOperations`: the built console's persisted-documents.json, read when it exists. */
export function limitsFromConfig(config: LimitSettings, consoleOperations?: string): GraphQLLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxCost: config.GRAPHQL_MAX_COST,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    introspection: config.GRAPHQL_INTROSPECTION,
    // Suggestions name fields a stranger could not otherwise list (test/graphql/introspection.test.ts).
    suggestions: config.NODE_ENV === 'development',
    allowList: config.GRAPHQL_ALLOWLIST ? loadAllowList(config.GRAPHQL_ALLOWLIST, config.GRAPHQL_MAX_TOKENS) : null,
    knownOperations: consoleOperations && existsSync(consoleOperations) ? loadAllowList(consoleOperations, config.GRAPHQL_MAX_TOKENS) : null,
    sessionsKnownOnly: config.SESSION_OPERATIONS === 'console',
  };
}

function reportTo(ctx: ValidationContext | null, error: GraphQLError) {
  // graphql-armor words its refusals as syntax errors; they are not.
  ctx?.reportError(refusal(error.message.replace(/^Syntax Error: /, '')));
}

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
