import { Kind, OperationTypeNode, getNamedType, isListType, isNonNullType, print, type GraphQLInputType } from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildAppSchema } from '../../src/graphql/schema.js';
import { routeTableOf } from '../../rest-mapping/index.js';
import { resolvers, rest } from '../../src/modules/index.js';

const routeTable = routeTableOf(rest);
import { OPERATOR_TOKEN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { SCOPES } from '../../src/core/scopes.js';

/**
 * Every route and every root field, generated from the route table and the schema so none is
 * forgotten: no token, an unknown, a paused and the operator token are 401 on /v1; a token without
 * the needed scope is 403 (before any argument is looked at); a token with every scope but limited
 * to another domain is 403 wherever a route names a domain (path or argument).
 * `whatsapp_full` is a scope no operation here needs.
 */
let s: TestServer;
let unrelated: string;
let paused: string;
let otherDomain: string;
let domainA: { id: string };
beforeAll(async () => {
  s = await startTestServer();
  domainA = await seedDomain(s);
  const domainB = await seedDomain(s);
  otherDomain = await tokenWith(s, [...SCOPES].filter((x) => x.endsWith('_full')), domainB.id);
  unrelated = await tokenWith(s, ['whatsapp_full']);
  paused = await tokenWith(s, ['tokens_full', 'domains_full', 'users_full', 'smtp_users_full', 'sender_identity_full']);
  const list = await s.rest('GET', '/token?limit=100');
  const id = list.body.data.find((t: any) => t.scopes.includes('smtp_users_full') && t.scopes.length === 5).id;
  await s.rest('PUT', `/token/${id}`, { body: { status: 'pause' } });
});
afterAll(async () => {
  await s?.close();
});

const routes = Object.entries(routeTable).map(([key, spec]) => ({
  key,
  method: spec.method,
  path: spec.path.replace(/:([a-z_]+)/g, 'someid'),
}));

describe('/v1 auth matrix', () => {
  it.each(routes)('$key ($method $path)', async ({ method, path }) => {
    const body = method === 'GET' ? undefined : {};
    expect((await s.rest(method, path, { token: null, body })).status).toBe(401);
    expect((await s.rest(method, path, { token: 'mlsn.not-a-token', body })).status).toBe(401);
    expect((await s.rest(method, path, { token: paused, body })).status).toBe(401);
    expect((await s.rest(method, path, { token: OPERATOR_TOKEN, body })).status).toBe(401);
    const denied = await s.rest(method, path, { token: unrelated, body });
    expect([denied.status, denied.body]).toEqual([403, { message: 'This token does not have the scope this action needs.' }]);
  });
});

const schemaArgs = async () => {
  const schema = await buildAppSchema(createPubSub() as never, resolvers);
  return (key: string) => {
    const [op, name] = key.split('.');
    const root = op === 'Query' ? schema.getQueryType()! : schema.getMutationType()!;
    return root.getFields()[name].args.map((a) => a.name);
  };
};

describe('/v1 other-domain matrix', () => {
  it('a token limited to another domain is refused wherever a route names a domain', async () => {
    const argsOf = await schemaArgs();
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const [key, spec] of Object.entries(routeTable)) {
      const inPath = spec.path.includes(':domain_id');
      const inArgs = argsOf(key).includes('domain_id');
      if (!inPath && !inArgs) continue;
      const path = spec.path.replace(':domain_id', domainA.id).replace(/:([a-z_]+)/g, 'someid');
      const viaQuery = spec.method === 'GET' || spec.method === 'DELETE';
      const args = { ...VALID[key], ...(inArgs && !inPath ? { domain_id: domainA.id } : {}) };
      const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();
      const res = await s.rest(spec.method, viaQuery && query ? `${path}?${query}` : path, { token: otherDomain, body: viaQuery ? undefined : args });
      // A route that also names a resource by id ('someid', which does not exist) may say so first.
      const expected = /:(?!domain_id)[a-z_]+/.test(spec.path) ? [403, 404] : [403];
      checked.push(`${key} ${res.status} ${res.body?.message}`);
      if (!expected.includes(res.status) || (res.status === 403 && res.body.message !== 'This token is limited to another domain.')) {
        wrong.push(checked.at(-1)!);
      }
    }
    expect(checked.length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });
});

/** Well-formed arguments, so that the domain, not a missing field, is what refuses the call. */
const day = 86_400;
const since = Math.floor(Date.now() / 1000) - 7 * day;
const dates = { date_from: since, date_to: since + 3 * day };
const VALID: Record<string, Record<string, unknown>> = {
  'Mutation.create_token': { name: 'other', scopes: ['email_full'] },
  'Mutation.create_sender_identity': { name: 'Other', email: 'someone@example.com' },
  'Mutation.create_smtp_user': { name: 'other' },
  'Mutation.create_template': { name: 'other', html: '<p>x</p>' },
  'Mutation.add_to_blocklist': { recipients: ['someone@example.com'] },
  'Mutation.delete_from_blocklist': { all: true },
  'Mutation.add_hard_bounces': { recipients: ['someone@example.com'] },
  'Mutation.delete_hard_bounces': { all: true },
  'Mutation.add_spam_complaints': { recipients: ['someone@example.com'] },
  'Mutation.delete_spam_complaints': { all: true },
  'Mutation.add_unsubscribes': { recipients: ['someone@example.com'] },
  'Mutation.delete_unsubscribes': { all: true },
  'Mutation.add_on_hold_list': { recipients: ['someone@example.com'] },
  'Mutation.delete_on_hold_list': { all: true },
  'Query.activities': dates,
  'Query.analytics_date': { ...dates, 'event[]': 'sent' },
  'Query.analytics_country': dates,
  'Query.analytics_ua_name': dates,
  'Query.analytics_ua_type': dates,
  'Mutation.create_webhook': { url: 'https://hooks.example.com/x', name: 'other', events: ['activity.sent'] },
  'Mutation.create_inbound': { name: 'other' },
};

function dummy(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return dummy(type.ofType);
  if (isListType(type)) return [dummy(type.ofType)];
  const named = getNamedType(type) as any;
  if (named.getFields) {
    return Object.fromEntries(
      Object.values(named.getFields() as Record<string, any>).filter((f) => isNonNullType(f.type)).map((f) => [f.name, dummy(f.type)]),
    );
  }
  if (named.getValues) return named.getValues()[0].value;
  if (named.name === 'JSONObject') return {};
  return ({ Int: 10, Float: 1, Boolean: true } as Record<string, unknown>)[named.name] ?? 'someid';
}

describe('GraphQL auth matrix', () => {
  it('every root field needs a scope (or the operator), and says 403 without it', async () => {
    const schema = await buildAppSchema(createPubSub() as never, resolvers);
    const checked: string[] = [];
    for (const [kind, root] of [
      ['query', schema.getQueryType()!],
      ['mutation', schema.getMutationType()!],
    ] as const) {
      for (const field of Object.values(root.getFields())) {
        const op = buildOperationNodeForField({ schema, kind: kind as OperationTypeNode, field: field.name });
        const query = print({ kind: Kind.DOCUMENT, definitions: [op] });
        const variables = Object.fromEntries(field.args.map((a) => [a.name, dummy(a.type)]));
        const res = await s.gql(query, variables, unrelated);
        const code = res.body.errors?.[0]?.extensions?.code;
        if (field.name === 'whoami') {
          expect(res.status).toBe(200);
          continue;
        }
        // Any caller may ask; what it counts is null without the scope that reads it.
        if (field.name === 'overview') {
          const o = (await s.gql('{ overview { waiting { count } webhooks_failing setup { key done } } }', {}, unrelated)).body.data.overview;
          expect([o.waiting, o.webhooks_failing, o.setup.filter((x: { done: unknown }) => x.done !== null)]).toEqual([null, null, []]);
          continue;
        }
        // A picker's domains: none to a caller with no scope over domain data.
        if (field.name === 'domain_choices') {
          expect((await s.gql('{ domain_choices { id } }', {}, unrelated)).body.data.domain_choices).toEqual([]);
          continue;
        }
        // The plan is the account's, known to any of its callers; the figures need their scopes.
        if (field.name === 'usage') {
          const u = (await s.gql('{ usage { plan verification_credits api_quota { quota } } }', {}, unrelated)).body.data.usage;
          expect([typeof u.plan, u.verification_credits, u.api_quota]).toEqual(['string', null, null]);
          continue;
        }
        expect([field.name, code]).toEqual([field.name, 'FORBIDDEN']);
        if (!field.name.startsWith('operator_')) {
          const anon = await s.gql(query, variables, null);
          expect([field.name, anon.status]).toEqual([field.name, 401]);
        }
        checked.push(field.name);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });
});
