import sanitizeHtml from 'sanitize-html';

/**
 * Personalization (SPEC.md "Sending email"): `{{var}}` (spaces allowed, dots reach into objects)
 * in subject, html and text. A variable with no value renders empty, never as an error.
 *
 * Values placed into HTML are cleaned to the SPEC.md allowlist; anything else is removed, so a
 * recipient's data cannot inject script or markup the sender did not allow. In text and
 * subjects a value is plain text and goes in as it is (line breaks removed from subjects).
 */
const VARIABLE = /\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g;

const ALLOWED = {
  allowedTags: ['p', 'b', 'i', 'strong', 'em', 'a', 'li', 'ul', 'q', 'blockquote', 'abbr', 'address', 'cite', 'bdo', 'strike', 'u', 'h1', 'h2', 'h3', 'br', 'img'],
  allowedAttributes: {
    '*': ['id', 'class', 'style', 'href', 'src', 'width', 'height', 'alt', 'lang', 'title', 'dir', 'cite', 'target'],
  },
  selfClosing: ['br', 'img'],
  allowedSchemes: ['http', 'https', 'mailto', 'cid'],
  // Removed elements lose their content too when it is code, not text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object'],
} satisfies sanitizeHtml.IOptions;

export function cleanHtml(value: string): string {
  return sanitizeHtml(value, ALLOWED);
}

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
