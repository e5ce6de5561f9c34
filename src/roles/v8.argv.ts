import { tuneV8 } from './v8.js';
import { parseRoles } from './role.js';

/**
 * Imported first by src/main.ts: V8's flags for the roles `--role` names, before their code loads.
 * A `--role` that does not parse sets nothing; the process then reports it and exits.
 */
try {
  tuneV8(parseRoles(process.argv.slice(2)));
} catch {
  // reported by runProcess
}
