import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const state = globalThis.__PB_PG__;
  if (!state) return;
  await state.pg.stop();
  rmSync(state.dir, { recursive: true, force: true });
}
