/**
 * How many SMS segments a text takes (what the provider bills). GSM-7 when every character is in
 * the GSM 03.38 basic set or its extension table (extension characters take an escape septet, so
 * they count twice): 160 septets fit one SMS, 153 per part once concatenated (the UDH takes 7).
 * Anything else goes out as UCS-2: 70 UTF-16 code units in one SMS, 67 per part. Counted by
 * these formulas rather than by packing parts (a real encoder never splits an escape or a
 * surrogate pair across parts, which can add a part at the edges).
 */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
    '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENSION = new Set('\f^{}\\[~]|€');

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** Septets of `text` in GSM-7, or null when some character has no GSM-7 form. */
function septets(text: string): number | null {
  let n = 0;
  for (const ch of text) {
    if (GSM_BASIC.has(ch)) n += 1;
    else if (GSM_EXTENSION.has(ch)) n += 2;
    else return null;
  }
  return n;
}

export function smsSegments(text: string): { encoding: SmsEncoding; units: number; segments: number } {
  const gsm = septets(text);
  if (gsm !== null) return { encoding: 'GSM-7', units: gsm, segments: gsm <= 160 ? 1 : Math.ceil(gsm / 153) };
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

export const segmentCount = (text: string): number => smsSegments(text).segments;
