import { inflateRawSync } from 'node:zlib';

/**
 * Just enough of the zip format (APPNOTE.TXT) to take one file out of a report archive without
 * trusting it: the central directory is read and judged (entry count, names, declared sizes)
 * before anything is inflated, and inflation stops at the size the entry declared.
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  encrypted: boolean;
  compressedSize: number;
  /** As the directory declares it; inflation never goes past it. */
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
}

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** The end-of-central-directory record: searched for backwards over at most the longest comment. */
function endRecord(zip: Buffer): number {
  const last = zip.length - EOCD_SIZE;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipError('The zip archive is damaged.');
}

/**
 * The entries the central directory lists. Their count is read first and refused past
 * `maxEntries`, so an archive of many files costs nothing but this refusal.
 */
export function zipEntries(zip: Buffer, maxEntries: number): ZipEntry[] {
  const end = endRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  const dirSize = zip.readUInt32LE(end + 12);
  const dirStart = zip.readUInt32LE(end + 16);
  // ZIP64 marks its fields 0xFFFF / 0xFFFFFFFF: an archive of that size is no report.
  if (count === 0xffff || dirStart === 0xffffffff) throw new ZipError('The zip archive is too large (ZIP64).');
  if (count > maxEntries) throw new ZipError(`The zip archive holds ${count} files; a report archive holds one XML file.`);
  if (dirStart + dirSize > end) throw new ZipError('The zip archive is damaged.');
  const entries: ZipEntry[] = [];
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL) throw new ZipError('The zip archive is damaged.');
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (next > end) throw new ZipError('The zip archive is damaged.');
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      encrypted: (zip.readUInt16LE(at + 8) & 1) === 1,
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
    });
    at = next;
  }
  return entries;
}

/** The entry's compressed bytes, found through its local header. */
function entryData(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.offset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new ZipError('The zip archive is damaged.');
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw new ZipError('The zip archive is damaged.');
  return zip.subarray(start, start + entry.compressedSize);
}

/**
 * The entry's content. zlib stops as soon as the output passes the declared size, so an entry
 * that declares little and inflates to much (test/dmarc/report-limits.test.ts, "lies") costs
 * at most its declared size.
 */
export function extractEntry(zip: Buffer, entry: ZipEntry): Buffer {
  if (entry.encrypted) throw new ZipError('The zip archive is encrypted.');
  const data = entryData(zip, entry);
  let content: Buffer;
  if (entry.method === 0) content = data;
  else if (entry.method === 8) {
    try {
      content = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipError('The zip entry inflates past the size it declares.');
      throw new ZipError('The zip archive is damaged.');
    }
  } else throw new ZipError(`The zip archive uses compression method ${entry.method}; only deflate is taken.`);
  if (content.length !== entry.size) throw new ZipError('The zip entry does not hold the size it declares.');
  return content;
}
