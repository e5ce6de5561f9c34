import type { RouteTable } from './types.js';

export const recipientRoutes: RouteTable = {};
