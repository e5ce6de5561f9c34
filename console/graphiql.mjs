// The GraphQL IDE a browser gets at GET /graphql: GraphiQL as rendered by
// @graphql-yoga/render-graphiql, one HTML page with every script, style, worker and icon inlined,
// so it works on an install with no way out to the internet (Apollo's landing page loads Sandbox
// from a CDN). Rendered here, with the console, into console/dist/graphiql.html: the renderer is a
// large module no process of the service needs to load (src/http/graphiql.ts serves the file).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

const options = {
  title: 'Postbox GraphiQL',
  // No `endpoint`: the page posts to its own path, so it keeps working behind a path prefix.
  // Subscriptions go to the SSE endpoint, resolved against the page's URL (/graphql → /graphql/stream).
  subscriptionsProtocol: 'SSE',
  subscriptionsEndpoint: 'graphql/stream',
  credentials: 'omit',
  headers: JSON.stringify({ Authorization: 'Bearer ' }, null, 2),
  defaultEditorToolsVisibility: 'headers',
  defaultQuery: '{\n  whoami {\n    account_id\n  }\n}\n',
  // A token typed here is a credential: it stays in the tab, not in localStorage.
  shouldPersistHeaders: false,
};

/** Writes the page into `distDir`. */
export function writeGraphiqlPage(distDir) {
  writeFileSync(path.join(distDir, 'graphiql.html'), renderGraphiQL(options));
}
