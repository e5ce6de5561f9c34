import './roles/v8.argv.js';
import 'reflect-metadata';
import { rolesNamed } from './app.js';
import { startEmbeddedDatabase } from './roles/embedded.js';
import { parseRoles } from './roles/role.js';
import { runProcess } from './roles/process.js';

/**
 * `node dist/src/main.js [--role api|worker|smtp|all]` (`npm start`): one process of several roles,
 * all of them unless told (comma-separated), on DATABASE_URL or an embedded PostgreSQL. It loads the
 * code of every role; a process of one role starts from that role's entry (main.api.ts,
 * main.worker.ts, main.smtp.ts), which loads its own and needs DATABASE_URL.
 */
await runProcess(() => rolesNamed(parseRoles(process.argv.slice(2))), startEmbeddedDatabase);
