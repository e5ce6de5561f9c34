import { readFileSync } from 'node:fs';
import { CONFIGURATION_DOC, renderConfigurationDoc } from '../../scripts/config-doc.js';
import { configSchema, parseConfig } from '../../src/config/index.js';

/**
 * docs/configuration.md is written by `npm run docs:config` from the settings schema: the
 * committed page must be what the script writes now, so a setting added, removed, re-described or
 * given another default without regenerating the page fails here.
 */
describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the settings schema (src/config/)', () => {
    const committed = readFileSync(CONFIGURATION_DOC, 'utf8');
    if (committed !== renderConfigurationDoc()) {
      throw new Error(`${CONFIGURATION_DOC} is stale: run \`npm run docs:config\` and commit the result`);
    }
  });

  it('lists every setting of the schema, each with its default as parsed', () => {
    const page = readFileSync(CONFIGURATION_DOC, 'utf8');
    const parsed = parseConfig({}) as Record<string, unknown>;
    for (const name of Object.keys(configSchema.shape)) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect([name, Boolean(row)]).toEqual([name, true]);
      // A plain default is shown as the value a process starts with (computed ones are words).
      const shown = /^\| `[A-Z_0-9]+` \| `([^`]*)`(?: \([0-9]+ [KM]iB\))? \|/.exec(row!)?.[1];
      const value = parsed[name];
      if (shown !== undefined && value !== undefined && typeof value !== 'object') expect([name, shown]).toEqual([name, String(value)]);
    }
  });
});
