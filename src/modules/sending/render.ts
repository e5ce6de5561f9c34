import type { Config } from '../../config/index.js';
import { AppError, FieldErrorBag } from '../../core/errors.js';
import { templateRenderFailures, templateRenders } from '../../lib/metrics.js';
import type { Address } from '../messages/message.entity.js';
import { cleanHtml } from '../templates/template.clean.js';
import type { RenderLimits } from '../templates/template.engine.js';
import { isPlain, simpleOutputs } from '../templates/template.markup.js';
import { RenderBusy, renderInPool, RenderStopped } from '../templates/render.pool.js';
import { personalize, renderEmail, renderSend, type EmailRenderResult, type EmailRenderTask, type RenderPart, type SendRenderResult, type SendRenderTask } from '../templates/template.render.js';
import { dataBytesWithin } from './personalization.js';

export { cleanHtml, personalize, type RenderPart };

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
 *
 * Where a render runs: the `{{var}}` personalization SPEC.md names (templates/template.engine.ts
 * simpleOutputs) over small data costs a lookup per output and stays on the event loop; anything
 * more runs in the render pool (templates/render.pool.ts), whose hard time limit ends it.
 */

/**
 * What a render may do on the event loop: characters of the sources to parse (liquidjs reads them
 * a character at a time), outputs written (each output of each part, for each distinct data; each
 * distinct value is cleaned once for html) and bytes of data. At these bounds a send renders in
 * some tens of milliseconds at worst (test/templates/render-limits.test.ts, "the worst renders
 * kept on the event loop"); a `{{var}}` email of a few variables for one recipient, in well under one.
 */
const INLINE_SOURCE_CHARS = 256 * 1024;
const INLINE_OUTPUTS = 250;
const INLINE_DATA_BYTES = 16 * 1024;

function limits(config: Config): RenderLimits {
  return {
    ms: config.TEMPLATE_RENDER_MS,
    memory: config.TEMPLATE_MEMORY_LIMIT,
    outputChars: config.TEMPLATE_OUTPUT_MAX_CHARS,
    steps: config.TEMPLATE_MAX_STEPS,
  };
}

/** A part with nothing for the engine to do: its source is its output. */
const plain = (source: string | null) => source === null || isPlain(source);

/** Whether the sources, rendered for each of `datas`, are cheap enough for the event loop. */
function cheap(sources: (string | null)[], datas: Record<string, unknown>[]): boolean {
  let outputs = 0;
  let chars = 0;
  for (const source of sources) {
    if (source === null || isPlain(source)) continue;
    chars += source.length;
    if (chars > INLINE_SOURCE_CHARS) return false;
    const simple = simpleOutputs(source);
    if (simple < 0) return false;
    outputs += simple * datas.length;
  }
  if (outputs === 0) return true;
  if (outputs > INLINE_OUTPUTS) return false;
  let budget = INLINE_DATA_BYTES;
  for (const data of datas) {
    const bytes = dataBytesWithin(data, budget);
    if (bytes === null) return false;
    budget -= bytes;
  }
  return true;
}

const busy = () =>
  new AppError('The service is busy rendering templates. Please try again shortly.', 'SERVICE_UNAVAILABLE', 503, undefined, 5);

/**
 * Renders every part of an accepted send for each `to` recipient's data (recipients with the same
 * data once), within TEMPLATE_RENDER_MS for the whole send. Answers each recipient's subject, by
 * lowercase address; throws a 422 naming the part's field and the line when a part cannot be
 * rendered, a 503 when the render pool is too busy to take it. `lenient` (mail relayed over SMTP,
 * which was never written as a template): what cannot be rendered gets the `{{var}}` replacement
 * of old instead of a refusal.
 */
export async function renderAtAccept(
  config: Config,
  parts: RenderPart[],
  to: Address[],
  personalization: Record<string, Record<string, unknown>>,
  lenient = false,
): Promise<Map<string, string>> {
  const none: Record<string, unknown> = {};
  const indexOf = new Map<Record<string, unknown>, number>();
  const task: SendRenderTask = { kind: 'send', parts, datas: [], emails: [], limits: limits(config), lenient };
  const dataOf = to.map((a) => {
    const data = personalization[a.email.toLowerCase()] ?? none;
    let i = indexOf.get(data);
    if (i === undefined) {
      indexOf.set(data, (i = task.datas.length));
      task.datas.push(data);
      task.emails.push(data === none ? null : a.email);
    }
    return i;
  });
  const result = await renderSendOnLoopOrPool(config, task);
  if (result.failures.length) {
    templateRenderFailures.inc({ stage: 'accept' });
    const bag = new FieldErrorBag();
    for (const [field, message] of result.failures) bag.add(field, message);
    bag.throwIfAny();
  }
  return new Map(to.map((a, i) => [a.email.toLowerCase(), result.subjects[dataOf[i]]]));
}

/** The send rendered on the event loop when cheap, else in the pool; a render the pool stopped is a failure of its part. */
async function renderSendOnLoopOrPool(config: Config, task: SendRenderTask): Promise<SendRenderResult> {
  // Most sends: no markup at all, nothing to count.
  if (task.parts.every((p) => plain(p.source))) return renderSend(task);
  if (cheap(task.parts.map((p) => p.source), task.datas)) {
    templateRenders.inc({ thread: 'event_loop' });
    return renderSend(task);
  }
  templateRenders.inc({ thread: 'pool' });
  try {
    return await renderInPool(config, task);
  } catch (err) {
    if (err instanceof RenderBusy) throw busy();
    if (!(err instanceof RenderStopped)) throw err;
    const part = task.parts[err.part];
    if (task.lenient) {
      // Only subjects render for relayed mail: each gets the replacer, which costs a lookup per variable.
      return { subjects: task.datas.map((data) => personalize(part.source ?? '', data, 'subject', task.limits.outputChars)), failures: [] };
    }
    const email = task.emails[err.recipient];
    const message = `The ${part.field} could not be rendered${email ? ` for ${email}` : ''}: ${err.message}.`;
    return { subjects: [], failures: [[part.field, message]] };
  }
}

/**
 * One email's html and text at delivery (template.render.ts renderEmail): in the pool unless
 * cheap. A render the pool stopped falls back to the `{{var}}` replacer, in the pool too; a pool
 * too busy to take it throws, and the delivery is retried.
 */
export async function renderAtDelivery(config: Config, html: string | null, text: string | null, data: Record<string, unknown>): Promise<EmailRenderResult> {
  if (plain(html) && plain(text)) return { html, text, fellBack: 0 };
  const task: EmailRenderTask = { kind: 'email', html, text, data, limits: limits(config), fallback: false };
  let result: EmailRenderResult;
  if (cheap([html, text], [data])) {
    templateRenders.inc({ thread: 'event_loop' });
    result = renderEmail(task);
  } else {
    templateRenders.inc({ thread: 'pool' });
    try {
      result = await renderInPool(config, task);
    } catch (err) {
      if (!(err instanceof RenderStopped)) throw err;
      result = await renderInPool(config, { ...task, fallback: true });
    }
  }
  if (result.fellBack) templateRenderFailures.inc({ stage: 'deliver' }, result.fellBack);
  return result;
}
