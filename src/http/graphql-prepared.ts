import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Logger } from 'pino';
import type { Ctx } from '../graphql/context.js';
import { parseWithLimit, validationRules, type GraphQLLimits } from '../graphql/limits.js';
import { costRefusal } from '../graphql/limits-cost.js';
import { introspectionRefusal } from '../graphql/limits-introspection.js';
import { variablesRefusal } from '../graphql/limits-variables.js';
import { toGraphQLError } from '../graphql/errors.js';
import { meterRequest, onlyUncounted, rootFieldCount } from './ratelimit.js';
import { knownDocument, maxItemsOf } from './graphql-guard.js';
import { sessionRefusal } from '../graphql/allowlist.js';
import { isUnexpected } from './errors.js';
import { isAppError } from '../core/errors.js';

/** A document as /graphql runs it again and again: parsed, validated and compiled once. */
interface Prepared {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /**
   * graphql-jit's function, made at the document's second use (a document sent once is not worth
   * compiling); null where jit cannot compile the operation, so graphql's execute runs it.
   */
  compiled: CompiledQuery | null | undefined;
  operationName: string | undefined;
  uses: number;
  /** Requests it counts against the rate limits, and whether it counts against the daily quota (ratelimit.ts). */
  hits: number;
  countQuota: boolean;
  /** The cost refusal of an operation without variables, whose cost never changes; undefined when it has variables. */
  costRefused: GraphQLError | null | undefined;
}

/** Documents kept, least recently used out first; longer texts go to Apollo (its own store is bounded by size). */
const DOCUMENTS = 500;
const DOCUMENT_CHARS = 16 * 1024;
/** What answers of this path are, as Apollo sends them (`Accept` asking for nothing else). */
const JSON_TYPE = 'application/json; charset=utf-8';

export interface PreparedDeps {
  schema: GraphQLSchema;
  limits: GraphQLLimits;
  log: Logger;
  ctxFor: (req: FastifyRequest) => Promise<Ctx>;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  onUnexpected: (error: GraphQLError, ctx: Ctx) => void;
}

/**
 * /graphql's common case without Apollo's pipeline, so a query or mutation costs what its /v1
 * twin does (bench:routing `graphql_over_v1`): a POST of a JSON object whose document parsed and
 * validated before (the limits' rules and the allow-list included) runs its cached operation,
 * compiled by graphql-jit from its second use; the guards that need the request (variables, cost, anonymous introspection) and the
 * rate limits run as Apollo's plugins run them. Anything else (GET, APQ, batches, another
 * `Accept`, a document that does not parse or validate, variables that do not coerce, a refusal
 * by a guard or a context that cannot be made) goes to Apollo before anything was counted or run,
 * so those answers stay Apollo's own. Answers and errors are shaped as Apollo shapes them. At most
 * DOCUMENTS documents of at most DOCUMENT_CHARS each are kept, so documents sent to fill memory
 * cannot.
 * Guarded by test/graphql/prepared.test.ts and every suite that speaks /graphql.
 */
export class PreparedOperations {
  private readonly documents = new Map<string, Prepared | null>();
  private readonly parse: ReturnType<typeof parseWithLimit>;
  private readonly rules: ValidationRule[];

  constructor(private readonly deps: PreparedDeps) {
    this.parse = parseWithLimit(deps.limits);
    // graphql's own rules, then the limits' (Apollo adds its validationRules to the specified ones).
    this.rules = [...specifiedRules, ...validationRules(deps.limits)];
  }

  /** Answers the request and returns its body, or returns null for Apollo to answer it. */
  async serve(req: FastifyRequest, reply: FastifyReply): Promise<string | null> {
    const body = eligibleBody(req);
    if (!body) return null;
    // An id of the allow-list or of the console's operations stands for its document.
    const query = body.query ?? knownDocument(this.deps.limits, body.id!);
    if (query === undefined || query.length > DOCUMENT_CHARS) return null;
    const prepared = this.preparedOf(query, body.operationName);
    if (!prepared) return null;
    const variables = body.variables ?? {};
    const { schema, limits } = this.deps;
    // Variables an operation does not declare are never read: only declared ones are checked.
    const declared = prepared.costRefused === undefined;
    if (declared && getVariableValues(schema, prepared.operation.variableDefinitions!, variables).errors) return null;
    let ctx: Ctx;
    try {
      ctx = await this.deps.ctxFor(req);
    } catch {
      return null;
    }
    const refused = declared
      ? (variablesRefusal(prepared.document, body.operationName, variables, maxItemsOf) ??
        introspectionRefusal(limits, prepared.document, ctx) ??
        costRefusal(limits, schema, prepared.document, body.operationName, variables))
      : (introspectionRefusal(limits, prepared.document, ctx) ?? prepared.costRefused);
    if (refused || sessionRefusal(limits, prepared.document, ctx)) return null;
    // Console sessions are not metered (http/context.ts): the counters are per API token.
    if (ctx.auth && !ctx.auth.userId) {
      const metered = await meterRequest(ctx.services, ctx.auth, prepared.countQuota, prepared.hits).catch((err: unknown) => ({ failed: err }));
      if ('failed' in metered) return this.answer(reply, ctx, { errors: [graphQLErrorOf(metered.failed)] }, false);
      reply.headers(metered.headers);
      if (metered.refusal) return this.answer(reply, ctx, { errors: [toGraphQLError(metered.refusal)] }, false);
    }
    const compiled = this.compiledOf(prepared);
    const result = compiled
      ? await compiled.query(undefined, ctx, variables)
      : await execute({ schema, document: prepared.document, operationName: body.operationName, contextValue: ctx, variableValues: variables });
    return this.answer(reply, ctx, result, true);
  }

  private preparedOf(query: string, operationName: string | undefined): Prepared | null {
    const key = operationName ? `${operationName}\u0000${query}` : query;
    const hit = this.documents.get(key);
    if (hit !== undefined) {
      // Least recently used first out: a hit moves to the end.
      this.documents.delete(key);
      this.documents.set(key, hit);
      return hit;
    }
    const prepared = this.prepare(query, operationName);
    if (this.documents.size >= DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(key, prepared);
    return prepared;
  }

  /** The document's compiled operation from its second use on; null while graphql's execute runs it. */
  private compiledOf(prepared: Prepared): CompiledQuery | null {
    if (prepared.compiled !== undefined) return prepared.compiled;
    if (++prepared.uses < 2) return null;
    const compiled = compileQuery(this.deps.schema, prepared.document, prepared.operationName);
    prepared.compiled = isCompiledQuery(compiled) ? compiled : null;
    if (!prepared.compiled) this.deps.log.warn({ operationName: prepared.operationName }, 'graphql-jit cannot compile a /graphql operation; it runs on execute');
    return prepared.compiled;
  }

  /** Null for a document Apollo must answer: it does not parse or validate, or is not a query or mutation. */
  private prepare(query: string, operationName: string | undefined): Prepared | null {
    const { schema, limits } = this.deps;
    let document: DocumentNode;
    try {
      document = this.parse(query);
    } catch {
      return null;
    }
    if (validate(schema, document, this.rules).length) return null;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === 'subscription') return null;
    const fragments = Object.fromEntries(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    const fixedCost = !operation.variableDefinitions?.length;
    return {
      document,
      operation,
      compiled: undefined,
      operationName,
      uses: 0,
      hits: rootFieldCount(operation, fragments),
      countQuota: !onlyUncounted(operation),
      costRefused: fixedCost ? costRefusal(limits, schema, document, operationName, {}) : undefined,
    };
  }

  /** The answer as Apollo gives it: its errors formatted, their HTTP status and headers taken out of their extensions. */
  private answer(reply: FastifyReply, ctx: Ctx, result: ExecutionResult, executed: boolean): string {
    let status = 200;
    let errors: GraphQLFormattedError[] | undefined;
    if (result.errors?.length) {
      errors = result.errors.map((error) => {
        if (isUnexpected(error)) this.deps.onUnexpected(error, ctx);
        const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions?.code ?? 'INTERNAL_SERVER_ERROR' };
        const http = extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
        if (http && typeof http === 'object') {
          if (typeof http.status === 'number') status = http.status;
          for (const [k, v] of http.headers ?? []) reply.header(k, v);
          delete extensions.http;
        }
        try {
          return this.deps.formatError({ ...error.toJSON(), extensions }, error);
        } catch {
          return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
        }
      });
    }
    reply.code(status).header('content-type', JSON_TYPE);
    const out = executed ? { errors, data: result.data } : { errors };
    return `${JSON.stringify(out)}\n`;
  }
}

function graphQLErrorOf(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  if (isAppError(err)) return toGraphQLError(err);
  return new GraphQLError(err instanceof Error ? err.message : String(err), { originalError: err instanceof Error ? err : undefined });
}

interface Body {
  /** The document's text, or the id (`extensions.persistedQuery.sha256Hash`) that stands for it. */
  query: string | undefined;
  id: string | undefined;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** The request's body when this path may answer it: a POST of JSON asking for a JSON answer, with a document and nothing else to do. */
function eligibleBody(req: FastifyRequest): Body | null {
  if (req.method !== 'POST') return null;
  if (!req.headers['content-type']?.startsWith('application/json')) return null;
  const accept = req.headers.accept;
  if (accept && accept !== '*/*' && !/^application\/json\b/.test(accept)) return null;
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { query, operationName, variables, extensions } = body;
  const id = persistedId(extensions);
  // A text with an id is APQ's registration (Apollo checks the two match); neither is nothing to run.
  if (extensions !== undefined && (id === undefined || query !== undefined)) return null;
  if (id === undefined && typeof query !== 'string') return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  return { query: query as string | undefined, id, operationName: operationName ?? undefined, variables: (variables as Record<string, unknown> | null) ?? undefined };
}

/** The id of `{ persistedQuery: { version: 1, sha256Hash } }` and nothing else, or undefined. */
function persistedId(extensions: unknown): string | undefined {
  if (!extensions || typeof extensions !== 'object' || Object.keys(extensions).length !== 1) return undefined;
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } }).persistedQuery;
  if (!persisted || persisted.version !== 1 || typeof persisted.sha256Hash !== 'string' || Object.keys(persisted).length !== 2) return undefined;
  return persisted.sha256Hash;
}
