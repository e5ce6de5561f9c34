import type { RouteTable } from './types.js';

export const identityRoutes: RouteTable = {};
