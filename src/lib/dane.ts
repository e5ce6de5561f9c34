import { createHash, X509Certificate } from 'node:crypto';

/**
 * DANE for SMTP (RFC 7672): TLSA records of an MX host, checked against the certificate chain
 * it presents after STARTTLS. Only DANE-TA(2) and DANE-EE(3) are usable for SMTP (section 3.1);
 * PKIX-TA(0) and PKIX-EE(1) records are not.
 */
export interface Tlsa {
  usage: number;
  selector: number;
  mtype: number;
  data: Buffer;
}

/** A TLSA record's RDATA: usage, selector, matching type, then the association data. */
export function parseTlsa(rdata: Buffer | undefined): Tlsa | null {
  if (!rdata || rdata.length < 4) return null;
  return { usage: rdata[0], selector: rdata[1], mtype: rdata[2], data: rdata.subarray(3) };
}

/** Usable for SMTP: DANE-TA or DANE-EE, of the certificate or its public key, whole or hashed (SHA-256, SHA-512). */
export const usableTlsa = (t: Tlsa) => (t.usage === 2 || t.usage === 3) && (t.selector === 0 || t.selector === 1) && t.mtype <= 2;

function associated(cert: X509Certificate, t: Tlsa): boolean {
  const selected = t.selector === 0 ? cert.raw : cert.publicKey.export({ type: 'spki', format: 'der' });
  const digest = t.mtype === 0 ? selected : createHash(t.mtype === 1 ? 'sha256' : 'sha512').update(selected).digest();
  return digest.equals(t.data);
}

/**
 * Whether the presented chain (leaf first) satisfies one of the records. DANE-EE: the leaf itself
 * matches; its names and dates are not checked (section 3.1.1). DANE-TA: a certificate of the
 * chain matches, the chain up to it verifies, and the leaf is valid now for `host` (3.1.2).
 */
export function daneMatches(records: Tlsa[], chain: X509Certificate[], host: string, now = new Date()): boolean {
  const [leaf] = chain;
  if (!leaf) return false;
  for (const t of records.filter(usableTlsa)) {
    if (t.usage === 3 && associated(leaf, t)) return true;
    if (t.usage !== 2) continue;
    const anchor = chain.findIndex((c) => associated(c, t));
    if (anchor < 0) continue;
    const signed = chain.slice(0, anchor).every((c, i) => c.verify(chain[i + 1].publicKey));
    const current = new Date(leaf.validFrom) <= now && now <= new Date(leaf.validTo);
    if (signed && current && leaf.checkHost(host) !== undefined) return true;
  }
  return false;
}
