import type { RestContract, RouteTable } from './types.js';

/** The whole /v1 surface: every route of every resource, in the resources' order. */
export function routeTableOf(contract: Pick<RestContract, 'resources'>): RouteTable {
  return Object.assign({}, ...contract.resources.map((r) => r.routes));
}
