import type { EngineManifest } from '../engine.js';
import { verificationListWorker } from './list.worker.js';
import { verificationWorker } from './verification.worker.js';

export const verificationEngine: EngineManifest = {
  name: 'verification',
  workers: [verificationWorker, verificationListWorker],
};
