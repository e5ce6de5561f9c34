import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config/index.js';
import type { AppServices } from '../core/services.js';

export const ROLE_NAMES = ['api', 'worker', 'smtp'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** What a role starts on: the services every role shares, and where the database is. */
export interface RoleContext {
  services: AppServices;
  dbUrl: string;
  /** PUBLIC_URL was set; when it was not, the api fills it in from the port it listens on. */
  publicUrlSet: boolean;
}

/** A started role: what it serves, and how it stops. */
export interface RunningRole {
  http?: FastifyInstance;
  url?: string;
  smtpPort?: number;
  /** Stops taking work (requests, sessions, job moves); called before pg-boss stops. */
  stop(): Promise<void>;
  /** Lets go of what the jobs used, once pg-boss has stopped and no job runs. */
  release?(): Promise<void>;
}

/**
 * One process role, from its file in src/roles/: a role imports only the lists it runs (the api
 * its modules, the worker its workers, smtp its listener), so a process started from the role's
 * entry (src/main.<role>.ts) loads no code of the others (test/platform/role-modules.test.ts).
 */
export interface Role {
  name: RoleName;
  start(context: RoleContext): Promise<RunningRole>;
}

/** The role names of `--role api|worker|smtp|all` (comma-separated; all when absent). */
export function parseRoles(argv: string[]): RoleName[] {
  const i = argv.indexOf('--role');
  const raw = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--role='))?.slice(7) ?? 'all');
  if (!raw) throw new ConfigError('--role needs a value: api, worker, smtp or all');
  const roles = raw.split(',').map((r) => r.trim());
  if (roles.includes('all')) return [...ROLE_NAMES];
  for (const r of roles) if (!ROLE_NAMES.includes(r as RoleName)) throw new ConfigError(`unknown role "${r}" (api, worker, smtp, all)`);
  return roles as RoleName[];
}
