import type { EngineManifest } from '../engine.js';

/** Started by the smtp role (src/app.ts startSmtpRelay); it brings no workers and no tables. */
export const smtpEngine: EngineManifest = { name: 'smtp' };
