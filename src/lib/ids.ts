import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque resource id: 16 random base36 characters (~82 bits), the shape /v1 clients already see. */
export function newId(length = 16): string {
  const bytes = randomBytes(length);
  let out = '';
  // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
  for (let i = 0; out.length < length; i++) {
    if (i >= bytes.length) return out + newId(length - out.length);
    if (bytes[i] < 252) out += ALPHABET[bytes[i] % 36];
  }
  return out;
}
