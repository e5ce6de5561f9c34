import './roles/v8.worker.js';
import 'reflect-metadata';
import { workerRole } from './roles/worker.js';
import { runProcess } from './roles/process.js';

/** `node dist/src/main.worker.js` (`npm run start:worker`): a process of the worker role only: the background jobs; no HTTP surface, no GraphQL and no SMTP listener. */
await runProcess(() => [workerRole]);
