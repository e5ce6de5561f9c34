import type { RouteTable } from './types.js';

export const smtpUserRoutes: RouteTable = {};
