import { buildSchema, type NonEmptyArray } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import type { PubSub } from 'type-graphql';
import { authChecker } from './auth.js';
import { rejectNulCharacters, validateArgs } from './validation.js';
import { IsoTimestamp } from './scalars.js';
import { resolvers } from './resolvers.js';

export async function buildAppSchema(pubSub: PubSub): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: resolvers as unknown as NonEmptyArray<Function>,
    authChecker,
    // Our own validateFn runs class-validator and throws the 422 of the error catalogue.
    validateFn: validateArgs,
    globalMiddlewares: [rejectNulCharacters],
    pubSub,
    scalarsMap: [{ type: Date, scalar: IsoTimestamp }],
  });
}
