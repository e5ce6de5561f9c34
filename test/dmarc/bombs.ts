import { deflateRawSync, gzipSync } from 'node:zlib';

/**
 * Hostile report files, built the way an attacker builds them: zips written by hand (so an
 * entry can declare a size it does not hold) around deflate streams of zeros.
 */

export interface RawEntry {
  name: string;
  /** The deflate stream (method 8). */
  deflated: Buffer;
  /** The size the archive declares for the entry, true or not. */
  size: number;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A zip (APPNOTE 4.3) of deflated entries, with the sizes given; CRCs are left 0. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const common = [u16(20), u16(0), u16(8), u16(0), u16(0), u32(0), u32(e.deflated.length), u32(e.size), u16(name.length), u16(0)];
    const local = Buffer.concat([u32(0x04034b50), ...common, name, e.deflated]);
    central.push(Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), name]));
    locals.push(local);
    offset += local.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(dir.length), u32(offset), u16(0)]);
  return Buffer.concat([...locals, dir, end]);
}

/** `bytes` zeros, deflated as hard as zlib can (about a thousand to one). */
export const deflatedZeros = (bytes: number) => deflateRawSync(Buffer.alloc(bytes), { level: 9 });

/** `bytes` zeros, gzipped. */
export const gzippedZeros = (bytes: number) => gzipSync(Buffer.alloc(bytes), { level: 9 });

/** The attacker's zip: `count` XML entries of `bytes` zeros each, every one within the size a report may have. */
export function zipOfZeros(count: number, bytes: number): Buffer {
  const deflated = deflatedZeros(bytes);
  return rawZip(Array.from({ length: count }, (_, i) => ({ name: `report-${i}.xml`, deflated, size: bytes })));
}
