import type { EngineManifest } from '../engine.js';

/** Run by the SMTP listener for each message to an inbound route; no workers and no tables of its own. */
export const inboundEngine: EngineManifest = { name: 'inbound' };
