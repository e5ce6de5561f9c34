import { tuneV8 } from './v8.js';

/** Imported first by src/main.worker.ts: V8's flags for a process of the worker role, before its code loads. */
tuneV8(['worker']);
