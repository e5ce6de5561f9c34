import { buildSchema, type NonEmptyArray } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import type { PubSub } from 'type-graphql';
import { authChecker } from './auth.js';
import { rejectNulCharacters, validateArgs } from './validation.js';
import { appErrorsAsGraphQL } from './unavailable.js';
import { IsoTimestamp } from './scalars.js';
import { resolvers } from './resolvers.js';

let built: GraphQLSchema | null = null;

/**
 * The whole schema, once built. The /v1 routers run on cut-down copies of it, so code that needs
 * another field's argument types (a bulk send checks each item as send_email would) asks here.
 */
export function appSchema(): GraphQLSchema {
  if (!built) throw new Error('the schema has not been built yet');
  return built;
}

export async function buildAppSchema(pubSub: PubSub): Promise<GraphQLSchema> {
  built = await buildSchema({
    resolvers: resolvers as unknown as NonEmptyArray<Function>,
    authChecker,
    // Our own validateFn runs class-validator and throws the 422 of the error catalogue.
    validateFn: validateArgs,
    globalMiddlewares: [appErrorsAsGraphQL, rejectNulCharacters],
    pubSub,
    scalarsMap: [{ type: Date, scalar: IsoTimestamp }],
  });
  return built;
}
