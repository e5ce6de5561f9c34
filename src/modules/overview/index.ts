import type { ModuleManifest } from '../module.js';
import { OverviewResolver } from './overview.resolver.js';

/** The console's reads across modules (its landing page, plan and usage, domain pickers): GraphQL only, no SPEC.md resource. */
export const overviewModule: ModuleManifest = {
  name: 'overview',
  resolvers: [OverviewResolver],
};
