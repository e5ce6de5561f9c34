import './roles/v8.api.js';
import 'reflect-metadata';
import { apiRole } from './roles/api.js';
import { runProcess } from './roles/process.js';

/** `node dist/src/main.api.js` (`npm run start:api`): a process of the api role only: GraphQL, /v1, the console and the plain routes; no engine and no worker code. */
await runProcess(() => [apiRole]);
