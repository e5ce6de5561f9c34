// Builds the console into console/dist: typed operations (the console target of codegen.yml), a
// type check over console/ (so a schema change that breaks a console query fails here), Vite,
// then the GraphiQL page served at GET /graphql (graphiql.mjs).
// Skipped when nothing it reads changed since the last build (console/dist/.stamp holds a hash of
// the sources, the schema and the lockfile). `--if-possible` (postinstall) skips quietly when the
// dev dependencies are absent, as in a production-only install; `--force` rebuilds regardless.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const here = path.join(root, 'console');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const args = new Set(process.argv.slice(2));

if (!existsSync(bin('vite')) || !existsSync(bin('tsc'))) {
  const message = 'console: vite or typescript is not installed (dev dependencies); the console is not built.';
  if (args.has('--if-possible')) {
    console.log(message);
    process.exit(0);
  }
  console.error(message);
  process.exit(1);
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['dist', 'gql', 'node_modules'].includes(e.name) ? [] : files(p);
    return [p];
  });
}

const inputs = [...files(here), path.join(root, 'schema', 'schema.graphql'), path.join(root, 'codegen.yml'), path.join(root, 'package-lock.json')].sort();
const hash = createHash('sha256');
for (const f of inputs) hash.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
const digest = hash.digest('hex');
const stamp = path.join(here, 'dist', '.stamp');
if (!args.has('--force') && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
  console.log('console: up to date (console/dist)');
  process.exit(0);
}

function run(label, command, argv) {
  console.log(`console: ${label}`);
  const r = spawnSync(command, argv, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`console: ${label} failed`);
    process.exit(r.status ?? 1);
  }
}

// Only the console's target of codegen.yml: the tests' typed operations are `npm run codegen`'s.
const { parse } = await import(path.join(root, 'node_modules', 'yaml', 'dist', 'index.js'));
const config = parse(readFileSync(path.join(root, 'codegen.yml'), 'utf8'));
const target = 'console/src/gql/';
const only = JSON.stringify({ schema: config.schema, generates: { [target]: config.generates[target] } });
const tmp = path.join(here, 'dist-codegen.json');
writeFileSync(tmp, only);
try {
  run('codegen', bin('graphql-codegen'), ['--config', tmp, '--silent']);
} finally {
  (await import('node:fs')).rmSync(tmp, { force: true });
}
run('type check', bin('tsc'), ['--noEmit', '-p', path.join(here, 'tsconfig.json')]);
run('vite build', bin('vite'), ['build', '--config', path.join(here, 'vite.config.ts'), '--logLevel', 'warn']);
// The console's operations by id, which the server loads beside the console it serves (src/graphql/known-operations.ts).
copyFileSync(path.join(here, 'src', 'gql', 'persisted-documents.json'), path.join(here, 'dist', 'persisted-documents.json'));
console.log('console: GraphiQL page');
const { writeGraphiqlPage } = await import(path.join(here, 'graphiql.mjs'));
writeGraphiqlPage(path.join(here, 'dist'));
writeFileSync(stamp, digest);
console.log('console: built into console/dist');
