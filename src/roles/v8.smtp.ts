import { tuneV8 } from './v8.js';

/** Imported first by src/main.smtp.ts: V8's flags for a process of the smtp role, before its code loads. */
tuneV8(['smtp']);
