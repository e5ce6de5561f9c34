import type { EngineManifest } from '../engine.js';
import { dmarcRecheckWorker, dmarcResolveIpsWorker } from './dmarc.worker.js';

export const dmarcEngine: EngineManifest = {
  name: 'dmarc',
  workers: [dmarcRecheckWorker, dmarcResolveIpsWorker],
};
