import { readFileSync } from 'node:fs';

/** A report from test/fixtures with its {{PLACEHOLDERS}} filled, CRLF line ends as on the wire. */
export function fixture(name: string, values: Record<string, string>): Buffer {
  let text = readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
  for (const [k, v] of Object.entries(values)) text = text.replaceAll(`{{${k}}}`, v);
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}
