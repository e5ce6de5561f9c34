import { startRoles, type RunningApp } from './roles/runtime.js';
import { ROLE_NAMES, type Role, type RoleName } from './roles/role.js';
import { apiRole } from './roles/api.js';
import { workerRole } from './roles/worker.js';
import { smtpRole } from './roles/smtp.js';
import { startEmbeddedDatabase } from './roles/embedded.js';

export { ROLE_NAMES as ROLES, type RoleName, type RunningApp };

const roles = { api: apiRole, worker: workerRole, smtp: smtpRole };

/** The roles of these names, in the order a process of several starts them. */
export function rolesNamed(names: Iterable<RoleName>): Role[] {
  const asked = new Set(names);
  return ROLE_NAMES.filter((name) => asked.has(name)).map((name) => roles[name]);
}

/**
 * The composition root of a process that may run several roles (`npm start`, the tests): it loads
 * every role's code and starts those asked for (all of them unless told), on DATABASE_URL or on
 * the embedded PostgreSQL it starts. A process of one role starts from that role's entry
 * (src/main.<role>.ts), which loads that role's code only and needs DATABASE_URL.
 */
export async function startApp(opts: { env?: Record<string, string | undefined>; roles?: readonly RoleName[]; log?: Parameters<typeof startRoles>[1]['log'] }): Promise<RunningApp> {
  return startRoles(rolesNamed(opts.roles ?? ROLE_NAMES), { ...opts, ownDatabase: startEmbeddedDatabase });
}
