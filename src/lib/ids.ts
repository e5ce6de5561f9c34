import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

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

/** Opaque resource id: 16 random base36 characters (~82 bits), the shape /v1 clients already see. */
export function newId(length = 16): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
    if (b < 252) out += ALPHABET[b % 36];
  }
  return out;
}

/**
 * An id that sorts by creation time: the time in milliseconds (9 base36 characters, until the year
 * 5188), then random characters to `length`. Rows of a table that takes many inserts a second go
 * to the right edge of its primary key index (PostgreSQL inserts there without a descent from
 * the root, into a page already in cache) instead of to a random page of it.
 */
export function sortableId(length = 16): string {
  return Date.now().toString(36).padStart(9, '0') + newId(length - 9);
}
