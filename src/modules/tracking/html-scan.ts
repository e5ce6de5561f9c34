import { QuoteType, Tokenizer } from 'htmlparser2';

/** One link target in an HTML source: where its attribute value sits, and what it decodes to. */
export interface LinkSpot {
  /** Source range of the whole value, quotes included. */
  start: number;
  end: number;
  /** The value with character references decoded, as a browser would follow it. */
  href: string;
}

export interface HtmlScan {
  links: LinkSpot[];
  /** Index of the `<` of the last `</body>`, or null when there is none. */
  bodyClose: number | null;
}

/** Elements whose href a reader follows; `<link>` and `<base>` are left alone. */
function followable(tag: string): boolean {
  return tag === 'a' || tag === 'area' || tag.startsWith('v:');
}

const SPACE = /[\t\n\f\r ]/;

/** Where an attribute's value starts, given the end of its name: past `\s*=\s*`. */
function valueStart(html: string, nameEnd: number): number {
  let i = nameEnd;
  while (i < html.length && SPACE.test(html[i])) i++;
  i++; // the '='
  while (i < html.length && SPACE.test(html[i])) i++;
  return i;
}

/**
 * Finds link targets with htmlparser2's tokenizer, which knows comments, script and style
 * contents, quoting and character references the way browsers do. Positions refer to the
 * original string, so a caller can splice new values in without reserializing (and so without
 * altering) the rest of the markup.
 */
export function scanHtml(html: string): HtmlScan {
  const links: LinkSpot[] = [];
  let bodyClose: number | null = null;
  let tag = '';
  let attr = '';
  let nameEnd = 0;
  let value = '';
  // Attributes of a tag count only once the tag is closed; an unterminated tag is text.
  let pending: LinkSpot[] = [];
  const commit = () => {
    links.push(...pending);
    pending = [];
  };
  const noop = () => {};

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        pending = [];
      },
      onattribname(start, end) {
        attr = html.slice(start, end).toLowerCase();
        nameEnd = end;
        value = '';
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribentity(codepoint) {
        value += String.fromCodePoint(codepoint);
      },
      onattribend(quote, end) {
        if (attr !== 'href' || quote === QuoteType.NoValue || !followable(tag)) return;
        pending.push({ start: valueStart(html, nameEnd), end, href: value });
      },
      onopentagend: commit,
      onselfclosingtag: commit,
      onclosetag(start, end) {
        if (html.slice(start, end).toLowerCase() === 'body') bodyClose = html.lastIndexOf('<', start);
      },
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onprocessinginstruction: noop,
      ontext: noop,
      ontextentity: noop,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return { links, bodyClose };
}
