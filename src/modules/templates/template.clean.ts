import sanitizeHtml from 'sanitize-html';


/**
 * Values placed into HTML are cleaned to the SPEC.md allowlist; anything else is removed, so a
 * recipient's data cannot inject script or markup the sender did not allow. The template engine
 * (template.engine.ts) applies it to every `{{ value }}` of an html part.
 */
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
