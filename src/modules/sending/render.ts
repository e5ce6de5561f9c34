import type { Config } from '../../config/index.js';
import { FieldErrorBag } from '../../core/errors.js';
import { templateRenderFailures } from '../../lib/metrics.js';
import type { Address } from '../messages/message.entity.js';
import { cleanHtml } from '../templates/template.clean.js';
import { renderTemplate, templateErrorMessage, TemplateError, isPlain, type RenderLimits, type RenderMode } from '../templates/template.engine.js';

export { cleanHtml };

/**
 * Personalization (SPEC.md "Sending email"): subject, html and text are Liquid templates
 * (templates/template.engine.ts) rendered with each recipient's `personalization` data, so
 * `{{var}}` works as before and `{% if %}`, `{% for %}` and filters too. A variable with no value
 * renders empty, never as an error. Values placed into HTML are cleaned to the SPEC.md allowlist.
 *
 * A send is rendered for each of its recipients' data when it is accepted: what cannot be
 * rendered (a syntax error, a limit hit) is a 422 and nothing is stored. Subjects are kept as
 * rendered then; html and text are rendered again at delivery (the template's content is read
 * then, as before).
 */

/** A part of a send to render: where it came from (the 422's field) and its source. */
export interface RenderPart {
  field: string;
  source: string | null;
  mode: RenderMode;
}

function limits(config: Config, deadline: number): RenderLimits {
  return {
    ms: deadline - performance.now(),
    memory: config.TEMPLATE_MEMORY_LIMIT,
    outputChars: config.TEMPLATE_OUTPUT_MAX_CHARS,
    steps: config.TEMPLATE_MAX_STEPS,
  };
}

/**
 * Renders every part of an accepted send for each `to` recipient's data (recipients with the same
 * data once), within TEMPLATE_RENDER_MS for the whole send. Answers each recipient's subject, by
 * lowercase address; throws a 422 naming the part's field and the line when a part cannot be
 * rendered. `lenient` (mail relayed over SMTP, which was never written as a template): what cannot
 * be rendered gets the `{{var}}` replacement of old instead of a refusal.
 */
export function renderAtAccept(
  config: Config,
  parts: RenderPart[],
  to: Address[],
  personalization: Record<string, Record<string, unknown>>,
  lenient = false,
): Map<string, string> {
  const deadline = performance.now() + config.TEMPLATE_RENDER_MS;
  const subjects = new Map<string, string>();
  const done = new Map<Record<string, unknown>, string>();
  const none: Record<string, unknown> = {};
  const bag = new FieldErrorBag();
  for (const a of to) {
    const email = a.email.toLowerCase();
    const data = personalization[email] ?? none;
    const known = done.get(data);
    if (known !== undefined) {
      subjects.set(email, known);
      continue;
    }
    let subject = '';
    for (const part of parts) {
      if (part.source === null || isPlain(part.source) || bag.has(part.field)) {
        if (part.mode === 'subject') subject = part.source ?? '';
        continue;
      }
      try {
        const out = renderTemplate(part.source, data, part.mode, limits(config, deadline));
        if (part.mode === 'subject') subject = out;
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        if (lenient) {
          if (part.mode === 'subject') subject = personalize(part.source, data, 'subject');
          continue;
        }
        bag.add(part.field, templateErrorMessage(err, part.field, data === none ? null : a.email));
      }
    }
    if (!bag.empty) break;
    done.set(data, subject);
    subjects.set(email, subject);
  }
  if (!bag.empty) templateRenderFailures.inc({ stage: 'accept' });
  bag.throwIfAny();
  return subjects;
}

/**
 * One email's html or text at delivery. It rendered when the send was accepted; if it no longer
 * does (the template was edited since, or the message came over SMTP, whose bodies are not
 * checked as templates), the email still goes: with the `{{var}}` replacement of old rather than
 * not at all, and the failure is counted.
 */
export function renderAtDelivery(config: Config, source: string, data: Record<string, unknown>, mode: 'html' | 'text'): string {
  try {
    return renderTemplate(source, data, mode, limits(config, performance.now() + config.TEMPLATE_RENDER_MS));
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    templateRenderFailures.inc({ stage: 'deliver' });
    return personalize(source, data, mode);
  }
}

/**
 * The `{{var}}` replacer (spaces allowed, dots reach into objects): SMS texts (SPEC.md names only
 * `{{var}}` there) and the delivery fallback above. In text and subjects a value is plain text
 * and goes in as it is (line breaks removed from subjects).
 */
const VARIABLE = /\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g;

function lookup(data: Record<string, unknown>, path: string): unknown {
  if (path in data) return data[path];
  let cur: unknown = data;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
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

export function personalize(source: string, data: Record<string, unknown>, mode: 'html' | 'text' | 'subject'): string {
  if (!source.includes('{{')) return source;
  return source.replace(VARIABLE, (whole, name: string) => {
    // The unsubscribe link is the tracking's to fill in (instrument.ts), after personalization.
    if (name === 'unsubscribe') return whole;
    const value = asText(lookup(data, name));
    if (mode === 'html') return cleanHtml(value);
    if (mode === 'subject') return value.replace(/[\r\n]+/g, ' ');
    return value;
  });
}
