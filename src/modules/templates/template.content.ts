/** Content helpers: a template's text part made from its html. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

const BLOCK = 'p|div|h[1-6]|ul|ol|table|tr|blockquote|pre|section|article|header|footer|hr';

/**
 * A plain-text part for `auto_generate`: tags stripped, paragraph and line breaks kept, and each
 * link's target written after its label (`label [url]`) so it survives in text-only clients.
 */
export function htmlToText(html: string): string {
  let s = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    // Source whitespace is not layout in HTML: only tags break lines.
    .replace(/\s+/g, ' ');
  s = s.replace(/<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (_all, d, q, b, inner: string) => {
    const href = decode(d ?? q ?? b ?? '').trim();
    const label = inner.replace(/<[^>]*>/g, '').trim();
    if (!href || href.startsWith('#')) return inner;
    if (!label || decode(label) === href || decode(label) === href.replace(/^mailto:/, '')) return href;
    return `${inner} [${href}]`;
  });
  s = s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n * ')
    .replace(new RegExp(`</?(?:${BLOCK})\\b[^>]*>`, 'gi'), '\n\n')
    .replace(/<\/(?:td|th)\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decode(s)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
