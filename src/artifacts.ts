import { lexicographicSortSchema, printSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import pino from 'pino';
import { buildAppSchema } from './graphql/schema.js';
import { createRestSurface } from '../rest-mapping/adapter.js';
import { buildOpenApi } from '../rest-mapping/openapi.js';
import type { RestContract } from '../rest-mapping/types.js';

/** The committed artifacts, rendered from code: schema/schema.graphql and schema/openapi.json. */
export async function renderArtifacts(resolvers: readonly Function[], contract: RestContract): Promise<{ sdl: string; openapi: string }> {
  // Rendering never publishes: yoga's in-process pubsub stands in for the NOTIFY one, whose
  // type-graphql PubSub type it does not spell the same way (a type-only mismatch).
  const schema = await buildAppSchema(createPubSub() as never, resolvers);
  const rest = createRestSurface(schema, contract, pino({ level: 'silent' }));
  return {
    sdl: `${printSchema(lexicographicSortSchema(schema))}\n`,
    openapi: `${JSON.stringify(buildOpenApi(rest.routes, contract), null, 2)}\n`,
  };
}
