import { cleanHtml } from './template.clean.js';
import type { Context, Liquid, Emitter, FS, Template as Parsed } from 'liquidjs';
import type * as LiquidJs from 'liquidjs';
import { lazy } from '../../lib/lazy.js';

/**
 * The template language of subjects, html and text: Liquid (liquidjs), sandboxed.
 *
 * - No file system: includes, renders and layouts are refused when a template is parsed (a
 *   template is one string), and the engine's fs fails every lookup should one slip through.
 * - Only the data's own properties are reachable (`ownPropertyOnly`): no `constructor`, no
 *   prototype.
 * - Each render is bounded: time (liquidjs renderLimit), allocations of filters and ranges
 *   (memoryLimit), blocks rendered, so loop iterations (`steps`), and the size of the output.
 * - Filters must exist (`strictFilters`): a misspelt filter is an error when the template is
 *   saved, not a silently empty value in every email.
 *
 * What a `{{ value }}` writes is each mode's business: in html it is cleaned to SPEC.md's
 * allow-list, in subjects line breaks are removed, in text it goes in as it is; lists and objects
 * write nothing (as the `{{var}}` replacer this replaces did), so loop over them instead.
 */
export type RenderMode = 'html' | 'text' | 'subject';

export interface RenderLimits {
  /** Milliseconds the render may still take (a send's budget is shared by its renders). */
  ms: number;
  /** liquidjs memoryLimit: characters and items filters and ranges may allocate. */
  memory: number;
  /** Characters the output may have. */
  outputChars: number;
  /** Blocks rendered: each loop iteration and each branch taken counts one. */
  steps: number;
}

/** A template that cannot be parsed, or a render that failed or hit a limit; `line` is 1-based. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
    readonly kind: 'syntax' | 'render',
  ) {
    super(message);
  }
}

/** Templates refer to nothing outside themselves. */
const NO_FILES: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates cannot read files');
  },
  readFileSync: () => {
    throw new Error('templates cannot read files');
  },
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
};

const REFUSED_TAGS = ['include', 'render', 'layout', 'block'];

/** Characters one parse may read (liquidjs parseLimit). */
const PARSE_LIMIT = 6 * 1024 * 1024;

/** The literal the tracking fills in after rendering (tracking/instrument.ts). */
const UNSUBSCRIBE = '{{unsubscribe}}';

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

const WRITE: Record<RenderMode, (v: unknown) => string> = {
  html: (v) => {
    const s = asText(v);
    return s === UNSUBSCRIBE ? s : cleanHtml(s);
  },
  text: asText,
  subject: (v) => asText(v).replace(/[\r\n]+/g, ' '),
};

/** Loaded on first use (lib/lazy.ts): a part without Liquid markup (isPlain) never needs the engine. */
const liquidjs = lazy<typeof LiquidJs>('liquidjs');

function engine(mode: RenderMode): Liquid {
  const liquid = new (liquidjs().Liquid)({
    fs: NO_FILES,
    templates: {},
    relativeReference: false,
    ownPropertyOnly: true,
    strictFilters: true,
    outputEscape: WRITE[mode],
    cache: false,
    // A part is at most a template's or a send's body (5 MB of request): parsing never runs longer.
    parseLimit: PARSE_LIMIT,
  });
  for (const name of REFUSED_TAGS) {
    liquid.registerTag(name, {
      parse(token) {
        throw new Error(`the ${token.name} tag is not available: a template cannot use other files`);
      },
      render() {},
    });
  }
  countSteps(liquid);
  return liquid;
}

/** Steps left per render, by its context (a for loop renders its body once per item with the same context). */
const stepsLeft = new WeakMap<Context, { left: number }>();

function countSteps(liquid: Liquid): void {
  const renderer = liquid.renderer;
  const inner = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = function* (templates: Parsed[], ctx: Context, emitter?: Emitter) {
    const budget = stepsLeft.get(ctx);
    if (budget && --budget.left < 0) throw new Error('too many blocks rendered (loop iterations)');
    return yield* inner(templates, ctx, emitter);
  };
}

let made: Record<RenderMode, Liquid> | undefined;
const engines = (): Record<RenderMode, Liquid> => (made ??= { html: engine('html'), text: engine('text'), subject: engine('subject') });

/** Output that stops at its cap instead of growing without bound. */
class CappedEmitter implements Emitter {
  buffer = '';
  constructor(private readonly cap: number) {}
  write(html: unknown): void {
    this.buffer += typeof html === 'string' ? html : asText(html);
    if (this.buffer.length > this.cap) throw new Error(`the output is larger than ${this.cap} characters`);
  }
}

/**
 * Parsed templates by source (one tree per mode): a worker renders the same few templates for
 * many emails. Bounded by the characters of the sources kept (the parsed trees are of the same
 * order), oldest out first.
 */
const parsedCache = new Map<string, Partial<Record<RenderMode, Parsed[]>>>();
const CACHE_CHARS = 8 * 1024 * 1024;
const CACHE_SOURCE_MAX = 512 * 1024;
let cachedChars = 0;

function remember(source: string, mode: RenderMode, parsed: Parsed[]): void {
  const entry = parsedCache.get(source);
  if (entry) {
    entry[mode] = parsed;
    return;
  }
  if (source.length > CACHE_SOURCE_MAX) return;
  while (cachedChars + source.length > CACHE_CHARS) {
    const oldest = parsedCache.keys().next().value!;
    parsedCache.delete(oldest);
    cachedChars -= oldest.length;
  }
  parsedCache.set(source, { [mode]: parsed });
  cachedChars += source.length;
}

function positionOf(err: unknown): number | null {
  const token = (err as { token?: { getPosition?: () => [number, number] } }).token;
  return token?.getPosition ? token.getPosition()[0] : null;
}

/** liquidjs ends its messages with `, line:L, col:C`; the line is reported on its own. */
function reasonOf(err: unknown): string {
  const e = err as Error;
  const base = e instanceof liquidjs().LiquidError && (e as { originalError?: Error }).originalError ? (e as { originalError?: Error }).originalError! : e;
  return String(base.message ?? base).replace(/, line:\d+, col:\d+$/, '').replace(/\s+/g, ' ').trim();
}

function parse(source: string, mode: RenderMode): Parsed[] {
  const hit = parsedCache.get(source)?.[mode];
  if (hit) return hit;
  let parsed: Parsed[];
  try {
    parsed = engines()[mode].parse(source);
  } catch (err) {
    throw new TemplateError(reasonOf(err), positionOf(err), 'syntax');
  }
  remember(source, mode, parsed);
  return parsed;
}

/** The 422 message of a template error: the field, the line and the reason. */
export function templateErrorMessage(err: TemplateError, field: string, email: string | null = null): string {
  const where = err.line ? ` on line ${err.line}` : '';
  if (err.kind === 'syntax') return `The ${field} has a template error${where}: ${err.message}.`;
  return `The ${field} could not be rendered${email ? ` for ${email}` : ''}${where}: ${err.message}.`;
}

/** Adds each part's syntax error to the bag under its field: templates are checked when saved. */
export function checkSyntax(bag: { add(field: string, message: string): unknown }, parts: Record<string, string | null | undefined>): void {
  for (const [field, source] of Object.entries(parts)) {
    if (!source || isPlain(source)) continue;
    const err = syntaxError(source);
    if (err) bag.add(field, templateErrorMessage(err, field));
  }
}

/** The syntax error of a template, or null when it parses. */
export function syntaxError(source: string): TemplateError | null {
  try {
    parse(source, 'text');
    return null;
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
}

/** Whether the source has anything for the engine to do: without `{{` or `{%` it is its own output. */
export function isPlain(source: string): boolean {
  return !source.includes('{{') && !source.includes('{%');
}

/**
 * A key with dots (`{"order.id": 5}`) was reachable as `{{order.id}}` by the replacer this engine
 * replaced: it is nested into the scope where that does not hide a value of the data.
 */
function scopeOf(data: Record<string, unknown>): Record<string, unknown> {
  const scope: Record<string, unknown> = { ...data };
  for (const [key, value] of Object.entries(data)) {
    if (!key.includes('.')) continue;
    const parts = key.split('.');
    let cur = scope;
    let ok = true;
    for (const part of parts.slice(0, -1)) {
      const next = cur[part];
      if (next === undefined) cur = cur[part] = {};
      else if (next && typeof next === 'object' && !Array.isArray(next) && Object.prototype.hasOwnProperty.call(cur, part)) {
        cur = cur[part] = { ...(next as Record<string, unknown>) };
      } else {
        ok = false;
        break;
      }
    }
    if (ok && cur[parts[parts.length - 1]] === undefined) cur[parts[parts.length - 1]] = value;
  }
  // The unsubscribe link is the tracking's to fill in, whatever the data says.
  scope.unsubscribe = UNSUBSCRIBE;
  return scope;
}

/** The source rendered with one recipient's data; a TemplateError when it cannot be. */
export function renderTemplate(source: string, data: Record<string, unknown>, mode: RenderMode, limits: RenderLimits): string {
  if (isPlain(source)) return source;
  const parsed = parse(source, mode);
  const liquid = engines()[mode];
  const { Context, toValueSync } = liquidjs();
  const ctx = new Context(scopeOf(data), liquid.options, { renderLimit: Math.max(1, limits.ms), memoryLimit: limits.memory }, { liquid });
  stepsLeft.set(ctx, { left: limits.steps });
  const out = new CappedEmitter(limits.outputChars);
  try {
    toValueSync(liquid.renderer.renderTemplates(parsed, ctx, out));
  } catch (err) {
    throw new TemplateError(reasonOf(err), positionOf(err), 'render');
  }
  return out.buffer;
}

/**
 * What the engine sees the parts ask of the data: each top-level variable the template does not
 * define itself (a loop's item, an `assign`, a `capture` are its own), each null, in order of
 * appearance; null when none. A part that does not parse adds nothing (it is refused on save).
 */
export function templateVariables(...parts: (string | null | undefined)[]): Record<string, null> | null {
  const out: Record<string, null> = {};
  for (const part of parts) {
    if (!part || isPlain(part)) continue;
    let parsed: Parsed[];
    try {
      parsed = parse(part, 'text');
    } catch {
      continue;
    }
    for (const name of engines().text.globalVariablesSync(parsed)) if (name !== 'unsubscribe') out[name] = null;
  }
  return Object.keys(out).length ? out : null;
}
