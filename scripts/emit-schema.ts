/** Writes schema/schema.graphql and schema/openapi.json from code (a test fails when they are stale). */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { renderArtifacts } from '../src/artifacts.js';
import { resolvers, rest } from '../src/modules/index.js';

const { sdl, openapi } = await renderArtifacts(resolvers, rest);
writeFileSync('schema/schema.graphql', sdl);
writeFileSync('schema/openapi.json', openapi);
console.log('wrote schema/schema.graphql and schema/openapi.json');
