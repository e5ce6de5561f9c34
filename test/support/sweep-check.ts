import pg from 'pg';
import { largeBodyRoutes } from '../../src/http/body-limits.js';
import type { Config } from '../../src/config/index.js';
import type { HostileCase } from './hostile.js';

/**
 * Runs hostile cases against a live server and checks each answer: never a 5xx, every error in
 * the documented shape, and no stored data changed by a refused request. Shared by the bench
 * (bench/sweep.ts) and the bounded tests.
 */

/** Tables every request may write: the per-token rate-limit window and daily quota (src/modules/quota). */
const METERING = new Set(['api_rate_counters', 'api_quota_counters']);

/** md5 of every row of every table in `public` but the metering ones (pg-boss keeps its own schema). */
export class DataWatch {
  private client: pg.Client;
  private query = '';
  /** `ignore`: columns a refused request may still write, by table (an SMTP login stamps `smtp_users.accessed_at`). */
  constructor(
    dbUrl: string,
    private readonly ignore: Record<string, string[]> = {},
  ) {
    this.client = new pg.Client({ connectionString: dbUrl });
  }
  async start() {
    await this.client.connect();
    const { rows } = await this.client.query<{ t: string }>(
      `select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const tables = rows.map((r) => r.t).filter((t) => !METERING.has(t));
    this.query = `select ${tables
      .map((t) => {
        const row = this.ignore[t] ? `(to_jsonb(x) - array[${this.ignore[t].map((c) => `'${c}'`).join(', ')}])::text` : 'x::text';
        return `(select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) from "${t}" x) as "${t}"`;
      })
      .join(', ')}`;
  }
  async checksum(): Promise<Record<string, string>> {
    return (await this.client.query(this.query)).rows[0];
  }
  async close() {
    await this.client.end();
  }
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((t) => before[t] !== after[t]);
}

/** The body limit fastify applies to a route (src/http/body-limits.ts). */
export function bodyLimitOf(config: Pick<Config, 'MAX_BODY_BYTES' | 'DEFAULT_BODY_BYTES'>) {
  const routes = largeBodyRoutes(config).v1.map((r) => ({ ...r, re: new RegExp(`^${r.url.replace(/:[a-z_]+/g, '[^/]+')}$`) }));
  return (method: string, path: string) => routes.find((r) => r.method === method && r.re.test(path))?.bodyLimit ?? config.DEFAULT_BODY_BYTES;
}

export interface Answer {
  status: number;
  text: string;
  body: unknown;
}

export async function send(baseUrl: string, token: string, c: HostileCase): Promise<Answer> {
  const payload = c.build?.();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: Buffer | undefined;
  if (payload?.rawBody !== undefined) body = Buffer.isBuffer(payload.rawBody) ? payload.rawBody : Buffer.from(payload.rawBody);
  else if (payload?.body !== undefined) body = Buffer.from(JSON.stringify(payload.body));
  if (body !== undefined && c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${c.path}${c.query ? `?${c.query}` : ''}`, { method: c.method, headers, body: body && new Uint8Array(body), signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the shape check names it
  }
  return { status: res.status, text, body: parsed };
}

/** What is wrong with an answer to a refused /v1 request, or null: the shapes of SPEC.md "Errors". */
export function shapeViolation(c: HostileCase, a: Answer): string | null {
  if (c.expect && a.status !== c.expect) return `status ${a.status}, expected ${c.expect}`;
  if (a.status === 204) return a.text === '' ? null : `204 with a body: ${a.text.slice(0, 100)}`;
  if (a.status < 400) return null;
  const body = a.body as { message?: unknown; errors?: unknown } | undefined;
  if (typeof body?.message !== 'string') return `${a.status} without {message}: ${a.text.slice(0, 200)}`;
  if (a.status === 422) {
    const errors = body.errors;
    if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return `422 without an errors object: ${a.text.slice(0, 200)}`;
    for (const [k, v] of Object.entries(errors)) {
      if (!Array.isArray(v) || !v.every((m) => typeof m === 'string')) return `422 errors.${k} is not a string array: ${a.text.slice(0, 200)}`;
    }
  }
  return null;
}

export interface SweepReport {
  sent: number;
  byKind: Record<string, number>;
  statuses: Record<number, number>;
  serverErrors: string[];
  shapeViolations: string[];
  dataChanges: string[];
  /** Refusals checked one by one because their batch also had an accepted request. */
  replayed: number;
}

export function emptyReport(): SweepReport {
  return { sent: 0, byKind: {}, statuses: {}, serverErrors: [], shapeViolations: [], dataChanges: [], replayed: 0 };
}

interface Probe<C extends { kind: string; label: string }> {
  send(c: C): Promise<Answer>;
  violation(c: C, a: Answer): string | null;
  /** An answer that may have changed data; /v1: any 2xx. */
  accepted(a: Answer): boolean;
}

function record<C extends { kind: string; label: string }>(report: SweepReport, probe: Probe<C>, c: C, a: Answer) {
  report.sent++;
  report.byKind[c.kind] = (report.byKind[c.kind] ?? 0) + 1;
  report.statuses[a.status] = (report.statuses[a.status] ?? 0) + 1;
  if (a.status >= 500) report.serverErrors.push(`${c.label} -> ${a.status} ${a.text.slice(0, 200)}`);
  const wrong = probe.violation(c, a);
  if (wrong?.startsWith('internal error')) report.serverErrors.push(`${c.label} -> ${wrong}`);
  else if (wrong) report.shapeViolations.push(`${c.label} -> ${wrong}`);
}

/**
 * Sends cases one kind at a time. Checksumming every table around every request would cost more
 * than the requests, so a batch is checksummed once before and once after: a batch of refusals
 * only must leave the data as it was. A batch with an accepted request (2xx) may change data, so
 * its refusals are sent again one by one, each between two checksums, and the next batch starts
 * from a fresh baseline.
 */
export async function sweepBatches<C extends { kind: string; label: string }>(cases: C[], probe: Probe<C>, watch: DataWatch, report: SweepReport) {
  const byKind = new Map<string, C[]>();
  for (const c of cases) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  for (const batch of byKind.values()) {
    const before = await watch.checksum();
    const refused: C[] = [];
    for (const c of batch) {
      const a = await probe.send(c);
      record(report, probe, c, a);
      if (!probe.accepted(a)) refused.push(c);
    }
    if (refused.length === batch.length) {
      const changed = changedTables(before, await watch.checksum());
      if (changed.length) report.dataChanges.push(`refusals changed ${changed.join(', ')}: ${batch.map((c) => c.label).slice(0, 5).join(' | ')}`);
      continue;
    }
    for (const c of refused) {
      const start = await watch.checksum();
      const a = await probe.send(c);
      report.replayed++;
      if (probe.accepted(a)) continue;
      const changed = changedTables(start, await watch.checksum());
      if (changed.length) report.dataChanges.push(`${c.label} -> ${a.status} changed ${changed.join(', ')}`);
    }
  }
}

/** The /v1 cases of one operation. */
export function sweepOperation(baseUrl: string, token: string, watch: DataWatch, cases: HostileCase[], report: SweepReport) {
  return sweepBatches(cases, { send: (c) => send(baseUrl, token, c), violation: shapeViolation, accepted: (a) => a.status < 300 }, watch, report);
}
