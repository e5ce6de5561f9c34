import { lexicographicSortSchema, printSchema } from 'graphql';
import { createPubSub } from '@graphql-yoga/subscription';
import pino from 'pino';
import { buildAppSchema } from './schema.js';
import { createRestSurface } from '../../rest-mapping/adapter.js';
import { routeTable } from '../../rest-mapping/index.js';
import { buildOpenApi } from '../../rest-mapping/openapi.js';

/** The committed artifacts, rendered from code: schema/schema.graphql and schema/openapi.json. */
export async function renderArtifacts(): Promise<{ sdl: string; openapi: string }> {
  // Rendering never publishes: yoga's in-process pubsub stands in for the NOTIFY one, whose
  // type-graphql PubSub type it does not spell the same way (a type-only mismatch).
  const schema = await buildAppSchema(createPubSub() as never);
  const rest = createRestSurface(schema, routeTable, pino({ level: 'silent' }));
  return {
    sdl: `${printSchema(lexicographicSortSchema(schema))}\n`,
    openapi: `${JSON.stringify(buildOpenApi(rest.routes, schema), null, 2)}\n`,
  };
}
