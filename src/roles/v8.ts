import v8 from 'node:v8';
import type { RoleName } from './role.js';

/**
 * HEAP_GROWING_PERCENT when it is not set: 30 for a process that serves the api, 45 for one that
 * does not (the worker, the SMTP role). The worker's old generation fills with the buffers of the
 * messages it builds, which outlive a scavenge and die soon after; at 30 it ran a full collection
 * of its whole live heap every few hundred messages. A higher factor spends less of the worker's
 * CPU per message for more memory; 45 is the highest that keeps the worker within its memory
 * target, and 60 passed it (bench:drain and bench:memory guard both). The api's peak is the one
 * nearest that target, so it keeps the tighter factor.
 */
function heapGrowingPercent(set: number | undefined, roles: readonly RoleName[]): number {
  return set ?? (roles.includes('api') ? 30 : 45);
}

/**
 * MAGLEV when it is not set: off for a process that serves the api without the worker, on for
 * the others. Maglev, V8's mid-tier optimizing compiler, compiles hot functions on background
 * threads in zones of malloc blocks; glibc keeps what those jobs free resident, a sizeable share
 * of the api's peak RSS under load (malloc's arenas, not V8's heap: bench:memory). Without it a
 * hot function waits in the baseline tier for TurboFan, so the api spends more CPU per send and
 * per list request, which the acceptance and list targets allow (bench:sending, bench:routing).
 * A process with the worker role keeps it: its CPU bounds the delivery drain.
 */
function maglevOn(set: boolean | undefined, roles: readonly RoleName[]): boolean {
  return set ?? !(roles.includes('api') && !roles.includes('worker'));
}

export interface V8Tuning {
  heap_growing_percent: number;
  maglev: boolean;
}

let applied: V8Tuning | null = null;

/**
 * HEAP_GROWING_PERCENT and MAGLEV as the settings schema reads them (src/config/service.ts), read
 * here from the environment alone: this runs before any other module of the app, the schema's
 * included. A value the schema would refuse is left to it: the process reports it and exits.
 */
function settingsOf(env: NodeJS.ProcessEnv): { growing?: number; maglev?: boolean } {
  const growing = env.HEAP_GROWING_PERCENT;
  const maglev = env.MAGLEV;
  return {
    growing: growing && /^\d{1,3}$/.test(growing) && Number(growing) <= 300 ? Number(growing) : undefined,
    maglev: maglev === 'true' || maglev === '1' ? true : maglev === 'false' || maglev === '0' ? false : undefined,
  };
}

/**
 * Sets V8's flags for a process of these roles. Each entry (src/main*.ts) imports its v8.<role>.ts
 * first, so the flags are set before the app's code loads: Maglev turned off once the code of a
 * role had loaded no longer kept the api's memory down under load (bench:routing, bench:memory).
 * Not on the command line: NODE_OPTIONS does not take them, and every way of starting the service
 * runs an entry.
 */
export function tuneV8(roles: readonly RoleName[], env: NodeJS.ProcessEnv = process.env): void {
  const set = settingsOf(env);
  const growing = heapGrowingPercent(set.growing, roles);
  if (growing > 0) v8.setFlagsFromString(`--heap-growing-percent=${growing}`);
  const maglev = maglevOn(set.maglev, roles);
  if (!maglev) v8.setFlagsFromString('--no-maglev');
  applied = { heap_growing_percent: growing, maglev };
}

/** What tuneV8 set in this process (nothing in a process that no entry started, such as a test's). */
export function v8Tuning(): V8Tuning | Record<string, never> {
  return applied ?? {};
}
