import { Kind, OperationTypeNode, getNamedType, isListType, isNonNullType, print, type GraphQLInputType } from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildAppSchema } from '../../src/graphql/schema.js';
import { routeTable } from '../../rest-mapping/index.js';
import { OPERATOR_TOKEN, startTestServer, tokenWith, type TestServer } from '../support/server.js';

/**
 * Every route and every root field, generated from the route table and the schema so none is
 * forgotten: no token and a paused token are 401, a token without the needed scope is 403.
 * `whatsapp_full` is a scope no operation here needs.
 */
let s: TestServer;
let unrelated: string;
let paused: string;
beforeAll(async () => {
  s = await startTestServer();
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
    // Argument checks come first: a 422 for a missing field is also a refusal, but the scope
    // must be what refuses a well-formed call. So only a 403 or a 422 may come back.
    expect([403, 422]).toContain(denied.status);
  });
});

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
    const schema = await buildAppSchema(createPubSub() as never);
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
