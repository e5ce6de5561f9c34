import { randomFillSync } from 'node:crypto';

const ALPHABET = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz', 'latin1');

/**
 * Random bytes drawn 4 KiB at a time (as node's randomUUID does): a randomBytes call per id cost
 * more than the rest of the id, and the webhook engine makes two ids per delivery.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

/** An id's characters, written in place and read out as one string (appending them one by one made a string per character). */
let chars = Buffer.alloc(64);

/** Opaque resource id: 16 random base36 characters (~82 bits), the shape /v1 clients already see. */
export function newId(length = 16): string {
  if (length > chars.length) chars = Buffer.alloc(length);
  let n = 0;
  while (n < length) {
    const b = randomByte();
    // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
    if (b < 252) chars[n++] = ALPHABET[b % 36];
  }
  return chars.toString('latin1', 0, length);
}

/** 2020-01-01T00:00:00Z: a sortable id's time counts seconds from here (6 base36 characters last until 2089). */
const EPOCH_MS = Date.UTC(2020, 0, 1);

let prefixSecond = -1;
let prefix = '';

/** A sortable id's first characters for an instant (ms): the seconds since 2020, 6 base36 characters. */
export function sortablePrefix(atMs: number): string {
  return Math.floor((atMs - EPOCH_MS) / 1000).toString(36).padStart(6, '0');
}

/**
 * An id that sorts by creation time: the seconds since 2020 (6 base36 characters), then random
 * characters to `length`. Rows of a table that takes many inserts a second go to the right edge
 * of its primary key index, into pages already in cache, instead of to a random page of it, and a
 * table partitioned by id holds a time range per partition (src/db/partitions.ts).
 * Seconds, not milliseconds: the random part keeps 10 of 16 characters (51 bits), so ids made in
 * the same second collide with a chance of n^2 / 2 / 36^10; at 1,000 a second for a year, about
 * 0.004 (with milliseconds, 9 time characters, it would be 0.2; wholly random ids, 0.00006).
 * `atMs`: another instant than now (tests that write the past).
 */
export function sortableId(length = 16, atMs?: number): string {
  if (atMs !== undefined) return sortablePrefix(atMs) + newId(length - 6);
  const second = Math.floor((Date.now() - EPOCH_MS) / 1000);
  // Written once a second: the webhook engine makes tens of thousands of these a second.
  if (second !== prefixSecond) {
    prefixSecond = second;
    prefix = second.toString(36).padStart(6, '0');
  }
  return prefix + newId(length - 6);
}
