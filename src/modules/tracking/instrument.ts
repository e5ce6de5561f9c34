import { escapeHtml } from '../../lib/html.js';
import { scanHtml } from './html-scan.js';
import { trackingPrefix, trackingUrl, type LinkConfig } from './tokens.js';

export interface TrackingOptions {
  /** Inject the open pixel into html. */
  opens: boolean;
  /** Rewrite http(s) links in html (and bare http(s) URLs in text) to signed click URLs. */
  clicks: boolean;
  /** Append the unsubscribe footer(s). */
  unsubscribe: boolean;
  /** Html footer template containing {{unsubscribe}}; null = no html footer. */
  unsubscribeHtml: string | null;
  /** Text footer template containing {{unsubscribe}}; null = no text footer. */
  unsubscribePlain: string | null;
}

/** Where a sender's content asks for this email's unsubscribe URL. */
const UNSUBSCRIBE_VARIABLE = /\{\{\s*unsubscribe\s*\}\}/gi;
// Bare URLs in text end at whitespace or at characters that usually delimit them.
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
const TRAILING = /[.,;:!?'"*_)\]]$/;

export function unsubscribeUrl(config: LinkConfig, emailId: string): string {
  return trackingUrl(config, 'unsubscribe', emailId);
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Sentence punctuation after a URL is not part of it; a `)` is, when the URL opened one. */
function trimUrl(url: string): string {
  let out = url;
  while (TRAILING.test(out)) {
    if (out.endsWith(')') && (out.match(/\(/g)?.length ?? 0) >= (out.match(/\)/g)?.length ?? 0)) break;
    out = out.slice(0, -1);
  }
  return out;
}

function insertAt(html: string, at: number | null, addition: string): string {
  return at === null ? html + addition : html.slice(0, at) + addition + html.slice(at);
}

function insertBeforeBodyEnd(html: string, addition: string): string {
  return insertAt(html, scanHtml(html).bodyClose, addition);
}

/**
 * This email's unsubscribe URL, signed on first use: only a footer or a `{{unsubscribe}}` in the
 * content needs it (most domains leave unsubscribe tracking off), and until then no link can hold it.
 */
class UnsubscribeUrl {
  private url: string | null = null;
  constructor(
    private readonly config: LinkConfig,
    private readonly emailId: string,
  ) {}

  get(): string {
    return (this.url ??= unsubscribeUrl(this.config, this.emailId));
  }

  /** Whether `target` is this email's unsubscribe URL (or holds it): never before it was made. */
  within(target: string): boolean {
    return this.url !== null && target.includes(this.url);
  }
}

/**
 * The html with its http(s) links rewritten to signed click URLs, and where its `</body>` is now:
 * the links' scan finds it too, moved by the links rewritten before it, so the pixel needs no
 * second scan.
 */
function rewriteLinks(html: string, emailId: string, config: LinkConfig, unsub: UnsubscribeUrl): { html: string; bodyClose: number | null } {
  const ours = trackingPrefix(config);
  const scan = scanHtml(html);
  let rebuilt = '';
  let from = 0;
  let moved = 0;
  for (const link of scan.links) {
    const target = link.href.trim();
    if (!isHttpUrl(target) || unsub.within(target) || target.startsWith(ours)) continue;
    const value = `"${escapeHtml(trackingUrl(config, 'click', emailId, target))}"`;
    rebuilt += `${html.slice(from, link.start)}${value}`;
    if (scan.bodyClose !== null && link.end <= scan.bodyClose) moved += value.length - (link.end - link.start);
    from = link.end;
  }
  return { html: rebuilt + html.slice(from), bodyClose: scan.bodyClose === null ? null : scan.bodyClose + moved };
}

function instrumentHtml(html: string, emailId: string, opts: TrackingOptions, config: LinkConfig, unsub: UnsubscribeUrl): string {
  let out = html;
  if (opts.unsubscribe && opts.unsubscribeHtml) out = insertBeforeBodyEnd(out, opts.unsubscribeHtml);
  out = out.replace(UNSUBSCRIBE_VARIABLE, () => escapeHtml(unsub.get()));
  let bodyClose: number | null = null;
  if (opts.clicks) ({ html: out, bodyClose } = rewriteLinks(out, emailId, config, unsub));
  else if (opts.opens) bodyClose = scanHtml(out).bodyClose;
  if (opts.opens) {
    const pixel = trackingUrl(config, 'open', emailId);
    out = insertAt(
      out,
      bodyClose,
      `<img src="${escapeHtml(pixel)}" width="1" height="1" alt="" border="0" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`,
    );
  }
  return out;
}

function instrumentText(text: string, emailId: string, opts: TrackingOptions, config: LinkConfig, unsub: UnsubscribeUrl): string {
  let out = text;
  if (opts.unsubscribe && opts.unsubscribePlain) out = `${out.replace(/\s+$/, '')}\n\n${opts.unsubscribePlain}\n`;
  out = out.replace(UNSUBSCRIBE_VARIABLE, () => unsub.get());
  if (!opts.clicks) return out;
  const ours = trackingPrefix(config);
  return out.replace(TEXT_URL, (match) => {
    const url = trimUrl(match);
    if (!isHttpUrl(url) || url.startsWith(ours)) return match;
    return trackingUrl(config, 'click', emailId, url) + match.slice(url.length);
  });
}

/**
 * Adds open, click and unsubscribe tracking to one email's bodies. Pure: the same input gives
 * the same links, each signed for this email so the redirect can only ever go where the sender
 * linked to.
 */
export function instrument(
  parts: { html: string | null; text: string | null },
  emailId: string,
  opts: TrackingOptions,
  config: LinkConfig,
): { html: string | null; text: string | null } {
  const unsub = new UnsubscribeUrl(config, emailId);
  return {
    html: parts.html === null ? null : instrumentHtml(parts.html, emailId, opts, config, unsub),
    text: parts.text === null ? null : instrumentText(parts.text, emailId, opts, config, unsub),
  };
}
