import type { EngineManifest } from './engine.js';
import { deliveryEngine } from './delivery/index.js';
import { webhooksEngine } from './webhooks/index.js';
import { inboundEngine } from './inbound/index.js';
import { smtpEngine } from './smtp/index.js';
import { verificationEngine } from './verification/index.js';
import { dmarcEngine } from './dmarc/index.js';

/**
 * Every engine of the app, in one list: the long-lived machinery that runs jobs, leases and
 * listeners (each folder's README says its model and invariants). The composition root hands
 * their workers to the worker role and their tables to the ORM.
 */
export const engines: readonly EngineManifest[] = [deliveryEngine, webhooksEngine, verificationEngine, dmarcEngine, inboundEngine, smtpEngine];
