import type { RouteTable } from './types.js';
import { tokenRoutes } from './tokens.js';

/** The whole /v1 surface: every route, from the per-resource tables. */
export const routeTable: RouteTable = {
  ...tokenRoutes,
};
