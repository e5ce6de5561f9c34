import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { configSchema } from '../../src/config/index.js';

/**
 * The deployment files, checked offline: compose.yaml against the settings the service really
 * has and against .env.example, the Dockerfile's stages against what production needs (no
 * toolchain, not root, a health check). `docker compose config` runs too where the client has
 * the compose plugin (it needs no engine); elsewhere that one check is skipped.
 */
const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, Record<string, any>>;
  volumes?: Record<string, unknown>;
};
const APP_SERVICES = ['api', 'worker', 'smtp'] as const;

/** `KEY=value` lines of .env.example (values may be empty: the file names the variables). */
const envExample = new Map(
  read('.env.example')
    .split('\n')
    .map((l) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!, m[2]!]),
);

function environment(service: Record<string, any>): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v ?? '')]));
  return Object.fromEntries(env.map((e: string) => [e.split('=')[0], e.slice(e.indexOf('=') + 1)]));
}

/** compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?error}` and friends, or `$VAR`. */
function variables(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g)) names.add(m[1]!);
  for (const m of text.matchAll(/(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  return names;
}

/** Replaces each `${VAR...}` with a sample value, as compose would with a filled-in .env. */
const interpolate = (s: string) => s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g, 'x');

describe('compose.yaml', () => {
  it('has postgres and the three roles, each app service built here and started from its role\'s entry', () => {
    for (const name of ['postgres', ...APP_SERVICES]) expect(Object.keys(compose.services)).toContain(name);
    for (const name of APP_SERVICES) {
      const s = compose.services[name]!;
      expect(s.build).toBeDefined();
      expect(s.command).toEqual(['node', `dist/src/main.${name}.js`]);
      expect(s.restart).toMatch(/^(always|unless-stopped|on-failure)/);
      expect(s.depends_on?.postgres?.condition).toBe('service_healthy');
    }
    expect(compose.services.smtp!.ports).toContain('2525:2525');
  });

  it('scales the api behind a proxy: no published port of its own, the proxy on 3000 reaching every replica', () => {
    expect(compose.services.api!.ports).toBeUndefined();
    const proxy = compose.services.proxy as { image: string; ports: string[]; volumes: string[] };
    expect(proxy.image).toMatch(/^caddy:\d+\.\d+/);
    expect(proxy.ports).toContain('3000:3000');
    const [file, mounted] = proxy.volumes[0]!.split(':');
    expect(mounted).toBe('/etc/caddy/Caddyfile');
    const caddyfile = read(file!.replace(/^\.\//, ''));
    expect(caddyfile).toMatch(/dynamic a \{\s*name api\s*port 3000/);
    // The api trusts the one hop in front of it for client addresses.
    expect(environment(compose.services.api!).TRUST_PROXY).toBe('1');
    // The worker has nothing bound to one host either.
    expect(compose.services.worker!.ports).toBeUndefined();
  });

  it('points every role at the postgres service, with one APP_SECRET for all', () => {
    for (const name of APP_SERVICES) {
      const env = environment(compose.services[name]!);
      const url = new URL(interpolate(env.DATABASE_URL ?? ''));
      expect(url.protocol).toMatch(/^postgres(ql)?:$/);
      expect(url.hostname).toBe('postgres');
      expect(env.APP_SECRET).toMatch(/^\$\{APP_SECRET:\?/);
    }
    const pgEnv = environment(compose.services.postgres!);
    const url = new URL(interpolate(environment(compose.services.api!).DATABASE_URL!));
    expect(url.username).toBe(pgEnv.POSTGRES_USER);
    expect(url.pathname).toBe(`/${pgEnv.POSTGRES_DB}`);
  });

  it('runs postgres from a pinned official image on a named volume, with a pg_isready health check', () => {
    const pgService = compose.services.postgres!;
    expect(pgService.image).toMatch(/^postgres:\d+/);
    const volume = String(pgService.volumes?.[0] ?? '').split(':')[0]!;
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    const test = pgService.healthcheck?.test;
    expect([test].flat().join(' ')).toContain('pg_isready');
  });

  it('sets only real settings in the app services (names from the config schema)', () => {
    const settings = new Set(Object.keys(configSchema.shape));
    for (const name of APP_SERVICES) {
      const unknown = Object.keys(environment(compose.services[name]!)).filter((k) => !settings.has(k));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
  });

  it('takes every variable from .env.example, which lists no others and no real secrets', () => {
    const used = variables(read('compose.yaml'));
    expect([...used].filter((v) => !envExample.has(v))).toEqual([]);
    expect([...envExample.keys()].filter((v) => !used.has(v))).toEqual([]);
    expect(envExample.get('APP_SECRET')).toBe('');
    expect(envExample.get('POSTGRES_PASSWORD')).toBe('');
  });

  const composeCli = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  const cliMissing = composeCli.error
    ? 'no docker client on this machine'
    : composeCli.status !== 0
      ? `the docker client has no compose plugin (${(composeCli.stderr || composeCli.stdout).trim().split('\n')[0]})`
      : null;
  if (cliMissing) {
    it.skip(`docker compose config accepts it (skipped: ${cliMissing})`, () => undefined);
    console.log(`deploy-files: docker compose config not run: ${cliMissing}`);
  } else {
    it('docker compose config accepts it (no engine needed)', () => {
      const res = spawnSync('docker', ['compose', '-f', 'compose.yaml', '--env-file', '.env.example', 'config', '-q'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, APP_SECRET: 'a'.repeat(40), POSTGRES_PASSWORD: 'b'.repeat(24) },
      });
      expect({ status: res.status, stderr: res.stderr }).toEqual({ status: 0, stderr: '' });
    });
  }
});

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions by stage: continuation lines joined, comments and directives dropped. */
function dockerStages(text: string): Instruction[][] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  if (current) logical.push(current);
  const stages: Instruction[][] = [];
  for (const l of logical) {
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(l) ?? [];
    const ins = { op: op.toUpperCase(), args: args.trim() };
    if (ins.op === 'FROM') stages.push([]);
    if (!stages.length) continue; // ARG before the first FROM
    stages.at(-1)!.push(ins);
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const final = stages.at(-1)!;
  const all = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op);

  it('builds in one stage and runs from another, on pinned images', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names = new Set<string>();
    for (const stage of stages) {
      const [image, as, name] = stage[0]!.args.split(/\s+/);
      if (!names.has(image!)) {
        expect(image).not.toMatch(/:latest(@|$)/);
        expect(image).toMatch(/[:@]/); // no tag is latest too
      }
      if (as?.toUpperCase() === 'AS' && name) names.add(name);
    }
    expect(stages.some((s) => all(s, 'RUN').some((r) => /npm run build/.test(r.args)))).toBe(true);
  });

  it('runs dist/src/main.js with plain Node, as a user other than root, in production mode', () => {
    const user = all(final, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const cmd = all(final, 'CMD').at(-1)!.args;
    expect(JSON.parse(cmd)).toEqual(['node', 'dist/src/main.js']);
    expect(all(final, 'ENV').map((e) => e.args).join(' ')).toMatch(/NODE_ENV=production/);
    expect(all(final, 'EXPOSE').flatMap((e) => e.args.split(/\s+/))).toEqual(expect.arrayContaining(['3000', '2525']));
  });

  it('checks /health with Node itself', () => {
    const check = all(final, 'HEALTHCHECK').at(-1)?.args ?? '';
    expect(check).toMatch(/CMD\s+node\b/);
    expect(check).toContain('/health');
  });

  it('brings only the build output and production node_modules into the final stage', () => {
    const copies = all(final, 'COPY').map((c) => c.args);
    expect(copies.some((c) => /^--from=\S+\s+\S*dist\s/.test(c))).toBe(true);
    const modules = copies.find((c) => /node_modules/.test(c));
    const from = /--from=(\S+)/.exec(modules ?? '')?.[1];
    const source = stages.find((s) => new RegExp(`\\bAS\\s+${from}$`, 'i').test(s[0]!.args));
    expect(source && all(source, 'RUN').some((r) => /npm (install|prune) .*--omit=dev/.test(r.args))).toBe(true);
    expect(copies.filter((c) => /(^|\s)(\.\/)?(src|rest-mapping|test)\b/.test(c))).toEqual([]);
    expect(all(final, 'RUN').some((r) => /npm (install|ci)\b/.test(r.args))).toBe(false);
  });

  it('leaves dependencies, build output and secrets out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.data', '.git', '.env']));
  });
});
