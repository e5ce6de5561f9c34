import type { RouteTable } from './types.js';
import { modules } from '../src/modules/index.js';

/** The whole /v1 surface: every route of every module's resources, in the modules' order. */
export const routeTable: RouteTable = Object.assign({}, ...modules.flatMap((m) => (m.rest ?? []).map((r) => r.routes)));
