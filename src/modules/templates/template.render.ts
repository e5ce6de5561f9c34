import { cleanHtml } from './template.clean.js';
import { renderTemplate, templateErrorMessage, TemplateError, type RenderLimits, type RenderMode } from './template.engine.js';
import { isPlain } from './template.markup.js';

/**
 * The renders of a send and of an email, as plain functions of plain data: the same code runs on
 * the event loop for the cheap ones and in the render pool's worker threads for the others
 * (render.pool.ts, sending/render.ts), so it imports nothing but the engine.
 */

/** A part of a send to render: where it came from (the 422's field) and its source. */
export interface RenderPart {
  field: string;
  source: string | null;
  mode: RenderMode;
}

/** Which part of which recipient a render is at, for the message of a render the pool had to stop. */
export interface RenderProgress {
  at(part: number, recipient: number): void;
}

/**
 * A send's parts for each distinct data (recipients with the same data render once), within
 * `limits.ms` for all of them. `emails[i]` names data `i` in messages, null when it is no
 * recipient's own. `lenient` (mail relayed over SMTP, never written as a template): a subject that
 * cannot render gets the `{{var}}` replacement of old instead of a refusal.
 */
export interface SendRenderTask {
  kind: 'send';
  parts: RenderPart[];
  datas: Record<string, unknown>[];
  emails: (string | null)[];
  limits: RenderLimits;
  lenient: boolean;
}

/** The subject of each data, by its index; the first failure of each field, as 422 messages. */
export interface SendRenderResult {
  subjects: string[];
  failures: [field: string, message: string][];
}

export function renderSend(task: SendRenderTask, progress?: RenderProgress): SendRenderResult {
  const deadline = performance.now() + task.limits.ms;
  const subjects: string[] = [];
  const failures: [string, string][] = [];
  const failed = new Set<string>();
  for (let i = 0; i < task.datas.length && !failures.length; i++) {
    const data = task.datas[i];
    let subject = '';
    task.parts.forEach((part, p) => {
      if (part.source === null || isPlain(part.source) || failed.has(part.field)) {
        if (part.mode === 'subject') subject = part.source ?? '';
        return;
      }
      progress?.at(p, i);
      try {
        const out = renderTemplate(part.source, data, part.mode, { ...task.limits, ms: deadline - performance.now() });
        if (part.mode === 'subject') subject = out;
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        if (task.lenient) {
          if (part.mode === 'subject') subject = personalize(part.source, data, 'subject', task.limits.outputChars);
          return;
        }
        failed.add(part.field);
        failures.push([part.field, templateErrorMessage(err, part.field, task.emails[i])]);
      }
    });
    subjects.push(subject);
  }
  return { subjects, failures };
}

/**
 * One email's html and text at delivery. It rendered when the send was accepted; a part that no
 * longer does (its template was edited since, or the mail came over SMTP, whose bodies are not
 * checked as templates) gets the `{{var}}` replacement of old rather than none: the email still
 * goes. `fallback` asks for that replacement only.
 */
export interface EmailRenderTask {
  kind: 'email';
  html: string | null;
  text: string | null;
  data: Record<string, unknown>;
  limits: RenderLimits;
  fallback: boolean;
}

/** The parts as rendered, and how many of them fell back to the replacer. */
export interface EmailRenderResult {
  html: string | null;
  text: string | null;
  fellBack: number;
}

export function renderEmail(task: EmailRenderTask, progress?: RenderProgress): EmailRenderResult {
  const deadline = performance.now() + task.limits.ms;
  let fellBack = 0;
  const one = (source: string | null, mode: 'html' | 'text', p: number): string | null => {
    if (source === null) return null;
    progress?.at(p, 0);
    if (!task.fallback) {
      try {
        return renderTemplate(source, task.data, mode, { ...task.limits, ms: deadline - performance.now() });
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
      }
    }
    fellBack++;
    return personalize(source, task.data, mode, task.limits.outputChars);
  };
  const html = one(task.html, 'html', 0);
  const text = one(task.text, 'text', 1);
  return { html, text, fellBack };
}

/**
 * Loads what a render uses (liquidjs, its engines, the html cleaner) by rendering a small html
 * template: a render pool thread does it before its first task, so that loading is not counted in
 * a render's time limit.
 */
export function warmUp(): void {
  renderTemplate('{{ a }}', { a: '<b>x</b>' }, 'html', { ms: 60_000, memory: 1000, outputChars: 1000, steps: 10 });
}

/**
 * The `{{var}}` replacer (spaces allowed, dots reach into objects): SMS texts (SPEC.md names only
 * `{{var}}` there) and the delivery fallback above. In text and subjects a value is plain text
 * and goes in as it is (line breaks removed from subjects); in html it is cleaned, once per
 * distinct value. Values stop being put in once they would make the output longer than
 * `outputChars`: the rest keeps its `{{var}}` as written.
 */
const VARIABLE = /\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** The default cap of the replacer's output: TEMPLATE_OUTPUT_MAX_CHARS's default. */
const REPLACED_MAX_CHARS = 4 * 1024 * 1024;

function lookup(data: Record<string, unknown>, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(data, path)) return data[path];
  let cur: unknown = data;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

export function personalize(source: string, data: Record<string, unknown>, mode: 'html' | 'text' | 'subject', outputChars = REPLACED_MAX_CHARS): string {
  if (!source.includes('{{')) return source;
  const cleaned = new Map<string, string>();
  let added = 0;
  return source.replace(VARIABLE, (whole, name: string) => {
    // The unsubscribe link is the tracking's to fill in (instrument.ts), after personalization.
    if (name === 'unsubscribe') return whole;
    const raw = asText(lookup(data, name));
    let value = raw;
    if (mode === 'html') {
      value = cleaned.get(raw) ?? cleanHtml(raw);
      cleaned.set(raw, value);
    } else if (mode === 'subject') value = raw.replace(/[\r\n]+/g, ' ');
    if (source.length + added + value.length > outputChars) return whole;
    added += value.length - whole.length;
    return value;
  });
}
