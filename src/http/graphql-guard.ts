import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { ApolloServerOptions, ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Plugin } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { parseWithLimit, validationRules, withoutSuggestion, type GraphQLLimits } from '../graphql/limits.js';
import { costRefusal } from '../graphql/limits-cost.js';
import { introspectionRefusal } from '../graphql/limits-introspection.js';
import { variablesRefusal, type MaxItemsOf } from '../graphql/limits-variables.js';
import { argumentRules } from '../../rest-mapping/rules.js';
import { refusal } from '../graphql/refusal.js';
import { sessionRefusal } from '../graphql/allowlist.js';

/** What the introspection rule needs of a request's context (graphql/context.ts Ctx). */
interface Caller {
  auth: { sessionId?: string } | null;
  operator: boolean;
}

/** The `@MaxItems` of a root field's argument, read from the validation metadata /v1's OpenAPI document shows. */
export const maxItemsOf: MaxItemsOf = (field, argument) => argumentRules(field)[argument]?.maxItems;

/**
 * The limits of src/graphql/limits*.ts fitted to each GraphQL server: Apollo on /graphql, yoga on
 * /graphql/stream. Both refuse the same documents with the same 400 before executing anything.
 */
export function apolloGuard<C extends BaseContext & Caller>(limits: GraphQLLimits) {
  const costCheck: ApolloServerPlugin<C> = {
    async requestDidStart() {
      return {
        // Cost needs the variables (`limit: $n`), which validation rules never see.
        async didResolveOperation({ schema, document, request, operation, contextValue }) {
          // Apollo would run a subscription's resolver once, without its event: an internal error.
          if (operation?.operation === 'subscription') throw refusal('Subscriptions are served on /graphql/stream.', operation);
          // First: the checks below (cost) and execution coerce every item of every list variable.
          const lists = variablesRefusal(document, request.operationName, request.variables, maxItemsOf);
          if (lists) throw lists;
          const anonymous = introspectionRefusal(limits, document, contextValue) ?? sessionRefusal(limits, document, contextValue);
          if (anonymous) throw anonymous;
          const refused = costRefusal(limits, schema, document, request.operationName, request.variables);
          if (refused) throw refused;
        },
        async willSendResponse({ errors, response }) {
          // APQ answers an unknown id 200 so the client retries with the text; with an
          // allow-list that text is refused too, so the id is refused at once.
          if (limits.allowList && errors?.some((e) => e.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND')) {
            response.http.status = 400;
          }
        },
      };
    },
  };
  const options = {
    validationRules: validationRules(limits),
    parseOptions: { maxTokens: limits.maxTokens },
    // Our own rule (in validationRules) refuses introspection on both endpoints in one wording.
    introspection: true,
    // "Did you mean ...?" would tell what introspection is meant to hide (validation errors here;
    // execution's in the server's formatError, through withoutSuggestion).
    hideSchemaDetailsFromClientErrors: !limits.suggestions,
    persistedQueries: { cache: persistedQueryStore(limits) },
  } satisfies Partial<ApolloServerOptions<C>>;
  return { options, plugins: [costCheck] };
}

/** Persisted queries registered by clients (APQ), at most this many, oldest out first. */
const REGISTERED = 1000;

/**
 * Apollo's persisted-query store: the allow-list's ids, the console's (knownOperations), and
 * without an allow-list what clients registered (APQ: id and text sent once, then the id alone).
 * Apollo prefixes its keys with `apq:`; listed ids are plain.
 */
function persistedQueryStore(limits: GraphQLLimits) {
  const registered = new Map<string, string>();
  const idOf = (key: string) => key.replace(/^apq:/, '');
  return {
    get: async (key: string) => knownDocument(limits, idOf(key)) ?? (limits.allowList ? undefined : registered.get(idOf(key))),
    set: async (key: string, value: string) => {
      if (limits.allowList) return;
      if (registered.size >= REGISTERED) registered.delete(registered.keys().next().value!);
      registered.set(idOf(key), value);
    },
    delete: async (key: string) => void registered.delete(idOf(key)),
  };
}

/** The document a listed or console id stands for. */
export function knownDocument(limits: GraphQLLimits, id: string): string | undefined {
  return limits.allowList?.byId.get(id) ?? limits.knownOperations?.byId.get(id);
}

const REFUSED = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED']);

function refuseCost(limits: GraphQLLimits) {
  return ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution: (r: { errors: GraphQLError[] }) => void }) => {
    const { schema, document, operationName, variableValues } = args;
    const variables = variableValues as Record<string, unknown> | undefined;
    // First: the cost check and execution coerce every item of every list variable.
    const refused =
      variablesRefusal(document, operationName, variables, maxItemsOf) ??
      introspectionRefusal(limits, document, args.contextValue as Caller | undefined) ??
      sessionRefusal(limits, document, args.contextValue as Caller | undefined) ??
      costRefusal(limits, schema, document, operationName, variables);
    if (refused) setResultAndStopExecution({ errors: [refused] });
  };
}

export function yogaGuard(limits: GraphQLLimits): Plugin[] {
  const rules = validationRules(limits);
  const parse = parseWithLimit(limits);
  const plugins: Plugin[] = [
    {
      onParse({ setParseFn }) {
        setParseFn(parse);
      },
      onResultProcess({ result }) {
        // Apollo answers a document that does not parse or validate (limits included) 400.
        // yoga marks those errors `spec`, which answers 200 to `Accept: application/json`;
        // unmarked, they answer their 400 here too.
        const errors = (result as { errors?: readonly GraphQLError[] }).errors;
        for (const error of Array.isArray(errors) ? errors : []) {
          const http = error.extensions?.http as { spec?: boolean } | undefined;
          if (http && REFUSED.has(error.extensions?.code as string)) http.spec = false;
          if (!limits.suggestions) error.message = withoutSuggestion(error.message);
        }
      },
      onValidate({ addValidationRule }) {
        for (const rule of rules) addValidationRule(rule);
      },
      onExecute: refuseCost(limits),
      onSubscribe: refuseCost(limits),
    },
  ];
  if (!limits.suggestions) plugins.push(blockFieldSuggestionsPlugin({ mask: '' }));
  const list = limits.allowList;
  if (list) {
    const status400 = (message: string, code: string) => ({ message, extensions: { code, http: { status: 400 } } });
    plugins.push(
      usePersistedOperations({
        // A sent text runs when the allow-list rule finds it listed.
        allowArbitraryOperations: true,
        getPersistedOperation: (id) => list.byId.get(id) ?? null,
        customErrors: {
          notFound: status400('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND'),
          keyNotFound: status400('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', 'BAD_REQUEST'),
        },
      }),
    );
  }
  return plugins;
}
