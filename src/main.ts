import 'reflect-metadata';
import { ConfigError } from './config/index.js';
import { ROLES, startApp, type Role } from './app.js';

/** `node dist/src/main.js [--role api|worker|smtp|all]`; roles may be comma-separated. */
function parseRoles(argv: string[]): Role[] {
  const i = argv.indexOf('--role');
  const raw = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--role='))?.slice(7) ?? 'all');
  if (!raw) throw new ConfigError('--role needs a value: api, worker, smtp or all');
  const roles = raw.split(',').map((r) => r.trim());
  if (roles.includes('all')) return [...ROLES];
  for (const r of roles) if (!ROLES.includes(r as Role)) throw new ConfigError(`unknown role "${r}" (api, worker, smtp, all)`);
  return roles as Role[];
}

try {
  const app = await startApp({ roles: parseRoles(process.argv.slice(2)) });
  const stop = async (signal: string) => {
    app.services.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
}
