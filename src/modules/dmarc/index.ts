import type { ModuleManifest } from '../module.js';
import { DmarcMonitor } from './dmarc.entity.js';
import { DmarcResolver } from './dmarc.resolver.js';
import { dmarcRoutes } from './dmarc.rest.js';

export const dmarcModule: ModuleManifest = {
  name: 'dmarc',
  resolvers: [DmarcResolver],
  rest: [
    { name: 'DMARC monitoring', description: 'DMARC aggregate reports of a domain.', routes: dmarcRoutes },
  ],
  hiddenOnRest: [
    // The report address is in the default wanted_dmarc_record; SPEC.md's monitor has no field for it.
    'DmarcMonitor.report_address',
  ],
};
