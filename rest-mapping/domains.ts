import type { RouteTable } from './types.js';

export const domainRoutes: RouteTable = {};
