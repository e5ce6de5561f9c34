import type { RouteTable } from './types.js';

export const userRoutes: RouteTable = {};
