/**
 * The most a render kept on the event loop may cost: 250 outputs, of distinct values to clean or
 * of one value written again and again (cleaned once), 16 KB of data, 256 KB of source around
 * them. test/templates/render-limits.test.ts checks they stay on the loop (and one step past goes
 * to the pool); bench/worst-inputs.ts measures how long they hold it.
 */
export function worstInlineRenders(): { html: string; data: Record<string, unknown> }[] {
  const filler = '<p>filler</p>'.repeat(19_000);
  const keys = Array.from({ length: 200 }, (_, i) => `k${i}`);
  const distinct = Object.fromEntries(keys.map((k, i) => [k, `<b>${i}</b><script>${'y'.repeat(40)}</script>`]));
  const outputs = [...keys, ...keys.slice(0, 50)].map((k) => `<i>{{ ${k} }}</i>`).join('');
  const repeated = { v: '<script>y</script>'.repeat(850) };
  return [
    { html: `${filler}${outputs}`, data: distinct },
    { html: `${filler}${'{{ v }}'.repeat(250)}`, data: repeated },
  ];
}
