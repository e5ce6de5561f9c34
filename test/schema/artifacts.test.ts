import { readFileSync } from 'node:fs';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { renderArtifacts } from '../../src/artifacts.js';
import { resolvers, rest } from '../../src/modules/index.js';
import { routeTableOf } from '../../rest-mapping/index.js';

const STALE = 'is stale: run `npm run emit:schema` and commit the result';

describe('committed artifacts', () => {
  it('schema/schema.graphql and schema/openapi.json match the code', async () => {
    const { sdl, openapi } = await renderArtifacts(resolvers, rest);
    expect({ file: 'schema/schema.graphql', content: readFileSync('schema/schema.graphql', 'utf8') }).toEqual({
      file: 'schema/schema.graphql',
      content: sdl,
    });
    const committed = readFileSync('schema/openapi.json', 'utf8');
    if (committed !== openapi) throw new Error(`schema/openapi.json ${STALE}`);
  });

  it('test/generated/graphql.ts matches schema/ and test/**/*.graphql', async () => {
    const { config } = await loadCodegenConfig({ configFilePath: 'codegen.yml' });
    // codegen.yml also generates the console's operations (console/src/gql/, built by console:build).
    const outs = await generate({ ...config, silent: true }, false);
    const out = outs.find((o: { filename: string }) => o.filename === 'test/generated/graphql.ts')!;
    if (readFileSync('test/generated/graphql.ts', 'utf8') !== out.content) {
      throw new Error(`test/generated/graphql.ts ${STALE}`);
    }
  });

  it('the OpenAPI document covers every /v1 route with its error answers', async () => {
    const doc = JSON.parse(readFileSync('schema/openapi.json', 'utf8'));
    for (const spec of Object.values(routeTableOf(rest))) {
      const path = `/v1${spec.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = doc.paths[path]?.[spec.method.toLowerCase()];
      expect([spec.method, path, Boolean(op)]).toEqual([spec.method, path, true]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([String(spec.status ?? 200), '401', '403', '404', '422']));
    }
  });
});
