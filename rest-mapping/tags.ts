import type { RestResource, RouteSpec } from './types.js';

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/**
 * The tag of a route, by its key in the route table (`Query.domains`). A route of a table not
 * listed above is tagged by its first path segment (`/bounce-rules` → `Bounce rules`), so
 * a new table is documented before it is given its resource here.
 */
export function tagOf(key: string, spec: RouteSpec, resources: readonly RestResource[]): string {
  const found = resources.find((t) => key in t.routes);
  if (found) return found.name;
  const words = firstSegment(spec.path).replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
