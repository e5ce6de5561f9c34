import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hash,
  hkdfSync,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

/** A random secret for humans to copy: url-safe, no padding. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** API tokens are long random secrets, so one sha256 is enough to store them; it is also indexable. */
export function sha256Hex(value: string): string {
  // The one-shot form: every authenticated request hashes its token.
  return hash('sha256', value, 'hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  // Compare equal-length digests so neither the content nor the length leaks through timing.
  const ad = createHash('sha256').update(ab).digest();
  const bd = createHash('sha256').update(bb).digest();
  return timingSafeEqual(ad, bd) && ab.length === bb.length;
}

// scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and tens of milliseconds per check).
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Slow hash for passwords (SMTP users): `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

// Derived once per secret and purpose: HKDF costs more than the AES or HMAC it keys.
const subKeys = new Map<string, Buffer>();
function subKey(appSecret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${appSecret}`;
  let key = subKeys.get(id);
  if (!key) {
    if (subKeys.size >= 64) subKeys.clear();
    key = Buffer.from(hkdfSync('sha256', appSecret, 'postbox', purpose, 32));
    subKeys.set(id, key);
  }
  return key;
}

/** AES-256-GCM under a key derived from APP_SECRET; output `v1.iv.tag.ciphertext` (base64url). */
export function encrypt(appSecret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subKey(appSecret, 'encrypt'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decrypt(appSecret: string, sealed: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1') throw new Error('unknown ciphertext version');
  const decipher = createDecipheriv('aes-256-gcm', subKey(appSecret, 'encrypt'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The HMAC key of a purpose as a KeyObject, made once: createHmac turns a Buffer key into a
 * KeyObject on every call, several times the cost of the HMAC of a link token (delivery signs
 * three or four links per email, tracking verifies one per hit).
 */
const hmacKeys = new Map<string, KeyObject>();
function hmacKey(appSecret: string, purpose: string): KeyObject {
  const id = `${purpose}\u0000${appSecret}`;
  let key = hmacKeys.get(id);
  if (!key) {
    if (hmacKeys.size >= 64) hmacKeys.clear();
    key = createSecretKey(subKey(appSecret, `sign:${purpose}`));
    hmacKeys.set(id, key);
  }
  return key;
}

/** A tamper-proof link token: `payload.signature`, payload being base64url JSON. */
export function signToken(appSecret: string, purpose: string, data: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  const sig = createHmac('sha256', hmacKey(appSecret, purpose)).update(payload).digest('base64url');
  return `${payload}.${sig}`;
}

export function verifyToken<T = Record<string, unknown>>(appSecret: string, purpose: string, token: string): T | null {
  const [payload, sig] = String(token).split('.');
  if (!payload || !sig) return null;
  const expected = createHmac('sha256', hmacKey(appSecret, purpose)).update(payload).digest('base64url');
  if (!safeEqual(sig, expected)) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}
