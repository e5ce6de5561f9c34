import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Logger } from 'pino';
import type { Auth, Ctx } from '../graphql/context.js';
import { asUnavailable } from '../graphql/unavailable.js';
import { toGraphQLError } from '../graphql/errors.js';
import { isoTimestamp } from '../graphql/scalars.js';
import { QuotaService, type Usage } from '../modules/quota/quota.service.js';
import { forgetTokenHere } from '../core/token-cache.js';
import type { AppServices } from '../core/services.js';
import type { Config } from '../config/index.js';
import { errors, type AppError } from '../core/errors.js';

/** Root fields that do not use up the daily quota (they still count against the rate limit). */
export const UNCOUNTED_FIELDS: ReadonlySet<string> = new Set(['api_quota']);

export interface Metered {
  headers: Record<string, string>;
  /** The 429 to answer instead, when a limit is exceeded. */
  refusal: AppError | null;
}

const seconds = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));

/** The headers every metered answer carries, and the refusal when a limit is passed. */
export function verdict(u: Usage): Metered {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(u.rate.limit),
    'x-ratelimit-remaining': String(Math.max(0, u.rate.limit - u.rate.hits)),
    'x-ratelimit-reset': String(Math.ceil(u.rate.resetsAt.getTime() / 1000)),
    'x-apiquota-remaining': String(Math.max(0, u.quota.limit - u.quota.hits)),
    'x-apiquota-reset': isoTimestamp(u.quota.resetsAt),
  };
  let refusal: AppError | null = null;
  if (u.rate.hits > u.rate.limit) {
    refusal = errors.tooManyRequests('Too Many Attempts.', seconds(u.now, u.rate.resetsAt));
  } else if (u.accountRate.hits > u.accountRate.limit) {
    refusal = errors.tooManyRequests('Too Many Attempts.', seconds(u.now, u.accountRate.resetsAt));
  } else if (u.quota.hits > u.quota.limit) {
    refusal = errors.tooManyRequests(`The daily API quota of ${u.quota.limit} requests is used up.`, seconds(u.now, u.quota.resetsAt));
  }
  if (refusal) headers['retry-after'] = String(refusal.retryAfter);
  return { headers, refusal };
}

/**
 * Counts one request of `auth` worth `hits` through the process's Meter (modules/quota/meter.ts).
 * The plan sets the rate limits, and the token cache may hold an old plan for the moment its
 * change takes to arrive: before refusing for a rate limit, the plan is read as it is now.
 */
export async function meterRequest(services: Pick<AppServices, 'meter' | 'orm' | 'config'>, auth: Auth, countQuota: boolean, hits = 1): Promise<Metered> {
  try {
    const usage = await services.meter.meter(auth, hits, countQuota);
    const m = verdict(usage);
    if (!m.refusal || (usage.rate.hits <= usage.rate.limit && usage.accountRate.hits <= usage.accountRate.limit)) return m;
    const changed = await new QuotaService(services.orm.em.fork(), services.config).changedLimits(auth.accountId, auth.plan);
    if (!changed) return m;
    forgetTokenHere({ account_id: auth.accountId });
    return verdict({ ...usage, rate: { ...usage.rate, limit: changed.token }, accountRate: { ...usage.accountRate, limit: changed.account } });
  } catch (err) {
    throw asUnavailable(err);
  }
}

/** A query asking only for uncounted fields (`{ api_quota { remaining } }`). */
export function onlyUncounted(op: OperationDefinitionNode | undefined): boolean {
  if (!op || op.operation !== 'query') return false;
  return op.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && (UNCOUNTED_FIELDS.has(s.name.value) || s.name.value === '__typename'),
  );
}

/**
 * What a document costs against the limits: one request per root field it asks for, so aliases
 * (`a: send_email(...) b: send_email(...)`) and fragments cannot pack many operations into one.
 * Fields reached through fragments count too; `__typename` and the uncounted fields (`api_quota`)
 * do not. At least 1.
 */
export function rootFieldCount(op: OperationDefinitionNode | undefined, fragments: Record<string, FragmentDefinitionNode>): number {
  if (!op) return 1;
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): number =>
    set.selections.reduce((n, s) => {
      if (s.kind === Kind.FIELD) return n + (s.name.value === '__typename' || UNCOUNTED_FIELDS.has(s.name.value) ? 0 : 1);
      if (s.kind === Kind.INLINE_FRAGMENT) return n + walk(s.selectionSet);
      const f = fragments[s.name.value];
      if (!f || seen.has(f.name.value)) return n;
      seen.add(f.name.value);
      return n + walk(f.selectionSet);
    }, 0);
  return Math.max(1, walk(op.selectionSet));
}

function fragmentsOf(doc: DocumentNode): Record<string, FragmentDefinitionNode> {
  return Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}

/**
 * Meters Apollo requests once the operation is known (so `api_quota` alone spares the quota) and
 * answers 429 before anything runs. A document that fails to parse or validate never gets there;
 * it is counted as it is answered, so its answer carries the headers too.
 */
export function rateLimitPlugin(config: Config, log: Logger): ApolloServerPlugin<Ctx> {
  return {
    async requestDidStart() {
      let metered = false;
      const meter = async (rc: GraphQLRequestContext<Ctx>, countQuota: boolean, hits = 1) => {
        metered = true;
        const { auth, services } = rc.contextValue;
        // Console sessions are not metered (http/context.ts): the counters are per API token.
        if (!auth || auth.userId) return null;
        const m = await meterRequest(services, auth, countQuota, hits);
        for (const [k, v] of Object.entries(m.headers)) rc.response.http.headers.set(k, v);
        return m.refusal;
      };
      return {
        async didResolveOperation(rc) {
          const refusal = await meter(rc, !onlyUncounted(rc.operation), rootFieldCount(rc.operation, rc.document ? fragmentsOf(rc.document) : {}));
          if (refusal) throw toGraphQLError(refusal);
        },
        async willSendResponse(rc) {
          if (metered) return;
          try {
            await meter(rc, true);
          } catch (err) {
            // The answer (already an error) goes out as it is; only its headers are missing.
            log.error({ err, reqId: rc.contextValue.requestId }, 'metering a refused GraphQL request failed');
          }
        },
      };
    },
  };
}
