/**
 * How much structure one JSON request body may hold, counted over its bytes before anything is
 * built from them. Every value a body holds costs its parse, its structured clone back from the
 * parser thread onto the event loop, and GraphQL's coercion of each list item, all of which grow
 * with the number of values rather than with the bytes: a body of many tiny values is the costly
 * one, a long base64 string is cheap. Guarded by test/platform/json-bodies.test.ts.
 */
export interface JsonShapeLimits {
  /** Values in the whole body: every array item, every object member, and the body itself. */
  maxValues: number;
  /** Arrays and objects nested in one another, the body itself being the first. */
  maxDepth: number;
  /** Items of any one array. */
  maxArrayItems: number;
}

export const JSON_SHAPE_LIMITS: JsonShapeLimits = {
  // A bulk send of 500 messages of 200 values each, or a send to 70 recipients with 1,400
  // personalization values each. What crosses back from the parser thread is built on the event
  // loop and collected there: past this, one request held the loop for hundreds of milliseconds
  // (bench/worst-inputs.ts, the bulk sends).
  maxValues: 100_000,
  // Personalization data nests 8 deep at most (sending/personalization.ts), inside the send and its
  // `personalization` list; nothing the API takes comes near 64.
  maxDepth: 64,
  // The longest list the API takes is a verification list's 10,000 addresses (LIST_MAX_EMAILS);
  // suppressions and users take 1,000, bulk sends 500, personalization arrays 1,000. Twice the
  // longest, so a list a little over its own bound still gets that bound's own message
  // (test/verification/upload-limits.test.ts) and anything longer is refused before it is built.
  maxArrayItems: 20_000,
};

export type ShapeProblem =
  | { kind: 'values'; limit: number }
  | { kind: 'depth'; limit: number; path: string }
  | { kind: 'items'; limit: number; path: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Characters of one key shown in a path, and of the whole path. */
const KEY_SHOWN = 40;
const PATH_SHOWN = 200;

/** The index of the quote that closes the string opened at `start`, or -1 when none does. */
function stringEnd(bytes: Buffer, start: number): number {
  let at = start;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    // A quote after an odd run of backslashes is escaped. Runs lie between quotes, so each byte
    // is looked at once more at most.
    let run = 0;
    while (bytes[at - 1 - run] === BACKSLASH) run++;
    if (run % 2 === 0) return at;
  }
}

/** A key as a path shows it: decoded when it is short enough to decode, cut when long. */
function keyShown(bytes: Buffer, start: number, end: number): string {
  const raw = bytes.toString('utf8', start + 1, Math.min(end, start + 1 + KEY_SHOWN * 6));
  let key = raw;
  try {
    if (end - start - 1 <= KEY_SHOWN * 6) key = JSON.parse(`"${raw}"`) as string;
  } catch {
    // Not decodable: shown as sent.
  }
  return key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN)}…` : key;
}

/**
 * The open containers of a scan, innermost last: whether each is an array, its items so far, and
 * where its last key lies (decoded only when a path is shown).
 */
class Frames {
  depth = 0;
  readonly isArray: boolean[] = [];
  readonly items: number[] = [];
  readonly keyAt: number[] = [];
  readonly keyEnd: number[] = [];
  // No parameter property: worker threads run this file with Node's type stripping (tests).
  private readonly bytes: Buffer;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  open(isArray: boolean): void {
    this.isArray[this.depth] = isArray;
    this.items[this.depth] = 0;
    this.keyAt[this.depth] = this.keyEnd[this.depth] = -1;
    this.depth++;
  }

  /** The dotted path of the value being read inside the first `frames` containers. */
  path(frames = this.depth): string {
    const parts: string[] = [];
    for (let i = 0; i < frames; i++) {
      parts.push(this.isArray[i] ? String(this.items[i] - 1) : this.keyAt[i] < 0 ? '' : keyShown(this.bytes, this.keyAt[i], this.keyEnd[i]));
    }
    const path = parts.join('.');
    return path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path;
  }
}

/**
 * The first limit a JSON text breaks, or null. The bytes are scanned, not parsed: strings are
 * skipped to their closing quote (one native search for a long base64 string), and only the
 * structural characters outside them are counted. The scan stops at the first limit broken, so a
 * refused body costs no more than the part of it read up to there. A text that is not JSON may
 * pass or fail this scan; the parse that follows refuses it.
 */
export function jsonShapeProblem(bytes: Buffer, limits: JsonShapeLimits): ShapeProblem | null {
  const frames = new Frames(bytes);
  let values = 1;
  let expectKey = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (isSpace(c)) continue;
    const top = frames.depth - 1;
    if (c === COMMA) {
      if (top < 0) return null;
      frames.items[top]++;
      if (++values > limits.maxValues) return { kind: 'values', limit: limits.maxValues };
      if (!frames.isArray[top]) expectKey = true;
      else if (frames.items[top] > limits.maxArrayItems) return { kind: 'items', limit: limits.maxArrayItems, path: frames.path(top) };
      continue;
    }
    if (c === COLON) {
      expectKey = false;
      continue;
    }
    if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (top < 0) return null;
      frames.depth--;
      expectKey = false;
      continue;
    }
    // A value (or an object's key) starts here: the first one of its container counts as an item.
    if (top >= 0 && frames.items[top] === 0) {
      frames.items[top] = 1;
      if (++values > limits.maxValues) return { kind: 'values', limit: limits.maxValues };
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (frames.depth === limits.maxDepth) return { kind: 'depth', limit: limits.maxDepth, path: frames.path() };
      frames.open(c === OPEN_ARRAY);
      expectKey = c === OPEN_OBJECT;
    } else if (c === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return null;
      if (expectKey && top >= 0 && !frames.isArray[top]) {
        frames.keyAt[top] = i;
        frames.keyEnd[top] = end;
      }
      i = end;
    }
    // Any other byte belongs to a number or a literal: nothing to count.
  }
  return null;
}
