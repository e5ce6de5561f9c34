import type { ModuleManifest } from '../module.js';
import { OverviewResolver } from './overview.resolver.js';

/** The console's landing page: a read over other modules' tables, on GraphQL only (no SPEC.md resource). */
export const overviewModule: ModuleManifest = {
  name: 'overview',
  resolvers: [OverviewResolver],
};
