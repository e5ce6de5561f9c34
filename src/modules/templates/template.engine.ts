import { cleanHtml } from './template.clean.js';
import { Context, Liquid, LiquidError, toValueSync, type Emitter, type FS, type Template as Parsed } from 'liquidjs';
import { isPlain, markupProblem } from './template.markup.js';
import { ParsedCache } from './template.cache.js';

/**
 * The template language of subjects, html and text: Liquid (liquidjs), sandboxed.
 *
 * - No file system: includes, renders and layouts are refused when a template is parsed (a
 *   template is one string), and the engine's fs fails every lookup should one slip through.
 * - Only the data's own properties are reachable (`ownPropertyOnly`): no `constructor`, no
 *   prototype.
 * - Each render is bounded: time (liquidjs renderLimit, checked between nodes), allocations of
 *   filters, ranges and captures (memoryLimit), blocks rendered, so loop iterations (`steps`),
 *   and the size of the output. A render that may be expensive runs in a thread whose hard time
 *   limit ends what the checks between nodes cannot (render.pool.ts, template.markup.ts).
 * - Each parse is bounded: its tags and markup are counted before liquidjs reads it (template.markup.ts).
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

/**
 * A template that cannot be parsed, or a render that failed or hit a limit; `line` is 1-based.
 * Fields are declared, not parameter properties: the render worker runs this file from source
 * under jest, where Node strips types and cannot transform parameter properties.
 */
export class TemplateError extends Error {
  readonly line: number | null;
  readonly kind: 'syntax' | 'render';
  constructor(message: string, line: number | null, kind: 'syntax' | 'render') {
    super(message);
    this.line = line;
    this.kind = kind;
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

/** What one render keeps beside its liquidjs context (a for loop renders its body with the same context). */
interface RenderState {
  stepsLeft: number;
  outputChars: number;
  /** Values cleaned for html by this render: a value written many times is cleaned once. */
  cleaned: Map<string, string>;
}

const renderStates = new WeakMap<Context, RenderState>();

/**
 * Cleaning a value for html costs per character and per call: a value written again and again is
 * cleaned once per render (test/templates/render-limits.test.ts, "the worst renders kept on the
 * event loop").
 */
function writeHtml(this: { context: Context }, v: unknown): string {
  const s = asText(v);
  if (s === UNSUBSCRIBE || s === '') return s;
  const state = renderStates.get(this.context);
  const known = state?.cleaned.get(s);
  if (known !== undefined) return known;
  const out = cleanHtml(s);
  state?.cleaned.set(s, out);
  return out;
}

const WRITE: Record<RenderMode, (this: { context: Context }, v: unknown) => string> = {
  html: writeHtml,
  text: asText,
  subject: (v) => asText(v).replace(/[\r\n]+/g, ' '),
};


function engine(mode: RenderMode): Liquid {
  const liquid = new Liquid({
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

/**
 * Counts the blocks a render renders, and gives a tag that renders to a string (`capture`) an
 * output that is capped and charged to the memory limit, as liquidjs's own is neither
 * (test/templates/render-limits.test.ts, "capture in a loop").
 */
function countSteps(liquid: Liquid): void {
  const renderer = liquid.renderer;
  const inner = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = function* (templates: Parsed[], ctx: Context, emitter?: Emitter) {
    const state = renderStates.get(ctx);
    if (state && --state.stepsLeft < 0) throw new Error('too many blocks rendered (loop iterations)');
    return yield* inner(templates, ctx, emitter ?? (state ? new CappedEmitter(state.outputChars, ctx) : undefined));
  };
}

/** Parsed templates by source, one tree per mode: a worker renders the same few templates for many emails. */
const parsedCache = new ParsedCache<RenderMode, Parsed[]>();

let made: Record<RenderMode, Liquid> | undefined;
const engines = (): Record<RenderMode, Liquid> => (made ??= { html: engine('html'), text: engine('text'), subject: engine('subject') });

/** Output that stops at its cap instead of growing without bound; a capture's is charged to the memory limit too. */
class CappedEmitter implements Emitter {
  buffer = '';
  private readonly cap: number;
  private readonly charged: Context | null;
  constructor(cap: number, charged: Context | null = null) {
    this.cap = cap;
    this.charged = charged;
  }
  write(html: unknown): void {
    const s = typeof html === 'string' ? html : asText(html);
    this.charged?.memoryLimit.use(s.length);
    this.buffer += s;
    if (this.buffer.length > this.cap) throw new Error(`the output is larger than ${this.cap} characters`);
  }
}

function positionOf(err: unknown): number | null {
  const token = (err as { token?: { getPosition?: () => [number, number] } }).token;
  return token?.getPosition ? token.getPosition()[0] : null;
}

/** liquidjs ends its messages with `, line:L, col:C`; the line is reported on its own. */
function reasonOf(err: unknown): string {
  const e = err as Error;
  const base = e instanceof LiquidError && (e as { originalError?: Error }).originalError ? (e as { originalError?: Error }).originalError! : e;
  return String(base.message ?? base).replace(/, line:\d+, col:\d+$/, '').replace(/\s+/g, ' ').trim();
}

function parse(source: string, mode: RenderMode): Parsed[] {
  const hit = parsedCache.get(source, mode);
  if (hit) return hit;
  const tooLarge = markupProblem(source);
  if (tooLarge) throw new TemplateError(tooLarge, null, 'syntax');
  let parsed: Parsed[];
  try {
    parsed = engines()[mode].parse(source);
  } catch (err) {
    throw new TemplateError(reasonOf(err), positionOf(err), 'syntax');
  }
  parsedCache.set(source, mode, parsed);
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
  const ctx = new Context(scopeOf(data), liquid.options, { renderLimit: Math.max(1, limits.ms), memoryLimit: limits.memory }, { liquid });
  renderStates.set(ctx, { stepsLeft: limits.steps, outputChars: limits.outputChars, cleaned: new Map() });
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
