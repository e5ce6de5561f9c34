import { z } from 'zod';

declare module 'zod' {
  interface GlobalMeta {
    /** A computed default said in words, for docs/configuration.md (`npm run docs:config`). */
    defaultText?: string;
  }
}

/** A comma-separated list of `host:port` (or `[ipv6]:port`), the port optional. */
export const hostPortList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[^\s:]+(:\d+)?$|^\[[0-9a-f:]+\](:\d+)?$/i, 'expected host:port')));

/** `true`/`false`, or `1`/`0`. */
export const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** A setting written as JSON: its value parsed, or the setting refused as not JSON. Pipe it to the value's schema. */
export const jsonText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON object' });
    return z.NEVER;
  }
});
