import type { RouteTable } from './types.js';

export const templateRoutes: RouteTable = {};
