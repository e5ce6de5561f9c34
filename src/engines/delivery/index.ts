import type { EngineManifest } from '../engine.js';
import { deliverWorker } from './delivery.worker.js';

export const deliveryEngine: EngineManifest = {
  name: 'delivery',
  workers: [deliverWorker],
};
