import './roles/v8.smtp.js';
import 'reflect-metadata';
import { smtpRole } from './roles/smtp.js';
import { runProcess } from './roles/process.js';

/** `node dist/src/main.smtp.js` (`npm run start:smtp`): a process of the smtp role only: the SMTP listener; no HTTP surface, no GraphQL and no job handler. */
await runProcess(() => [smtpRole]);
