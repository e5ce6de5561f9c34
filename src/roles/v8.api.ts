import { tuneV8 } from './v8.js';

/** Imported first by src/main.api.ts: V8's flags for a process of the api role, before its code loads. */
tuneV8(['api']);
