import { buildSchema, getMetadataStorage, type NonEmptyArray } from 'type-graphql';
import { isObjectType, type GraphQLSchema } from 'graphql';
import type { PubSub } from 'type-graphql';
import { authChecker } from './auth.js';
import { rejectNulCharacters, validateArgs } from './validation.js';
import { appErrorsAsGraphQL } from './unavailable.js';
import { IsoTimestamp } from './scalars.js';

let built: GraphQLSchema | null = null;

/**
 * The whole schema, once built. The /v1 routers run on cut-down copies of it, so code that needs
 * another field's argument types (a bulk send checks each item as send_email would) asks here.
 */
export function appSchema(): GraphQLSchema {
  if (!built) throw new Error('the schema has not been built yet');
  return built;
}

/** The schema of the resolvers the composition root hands down (every module's: modules/index.ts). */
export async function buildAppSchema(pubSub: PubSub, resolvers: readonly Function[]): Promise<GraphQLSchema> {
  built = await buildSchema({
    resolvers: resolvers as unknown as NonEmptyArray<Function>,
    authChecker,
    // Our own validateFn runs class-validator and throws the 422 of the error catalogue.
    validateFn: validateArgs,
    globalMiddlewares: [appErrorsAsGraphQL, rejectNulCharacters],
    pubSub,
    scalarsMap: [{ type: Date, scalar: IsoTimestamp }],
  });
  readPlainFieldsDirectly(built);
  return built;
}

/**
 * type-graphql wraps every output field in the global middlewares, so a list of 50 rows of 10
 * fields runs 500 async middleware chains to read properties. The global ones do nothing for such
 * a field (it takes no arguments, and reading a property of a mapped object throws no AppError):
 * a field with no resolver method, no arguments, no `@Authorized` and no `@UseMiddleware` of its
 * own is read by graphql's default resolver instead, as type-graphql's `simpleResolvers` would
 * (which has no schema-wide switch). Root fields and field resolvers keep their chain.
 */
function readPlainFieldsDirectly(schema: GraphQLSchema): void {
  const storage = getMetadataStorage();
  const withResolver = new Set(storage.fieldResolvers.map((r) => r.methodName));
  for (const meta of storage.objectTypes) {
    const type = schema.getType(meta.name);
    if (!isObjectType(type)) continue;
    // An object type's fields are declared on its class, the classes it extends and its interfaces.
    const owners = new Set<Function>(meta.interfaceClasses ?? []);
    for (let cls = meta.target; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) owners.add(cls);
    const fields = type.getFields();
    for (const f of storage.fields) {
      if (!owners.has(f.target) || !fields[f.schemaName] || withResolver.has(f.name)) continue;
      const plain = f.simple !== false && f.roles === undefined && !f.middlewares?.length && !f.params?.length && f.schemaName === f.name;
      if (plain) fields[f.schemaName].resolve = undefined;
    }
  }
}
