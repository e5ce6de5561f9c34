import secureJson from 'secure-json-parse';
import { jsonShapeProblem, type JsonShapeLimits, type ShapeProblem } from '../lib/json-shape.js';
import { poolTask } from '../lib/untrusted-thread.js';

/**
 * The parse of a JSON request body (json-body.ts): inline for a small body, in a worker thread
 * for a large one, the same steps either way. Results cross back from the thread by structured
 * clone, whose cost grows with the number of values: the shape limits bound it.
 */

export type JsonRead = { value: unknown } | { problem: ShapeProblem } | { invalid: true };

/** fastify's own JSON parser refuses these the same way (getDefaultJsonParser('error', 'error')). */
const PROTOTYPE_POISONING = { protoAction: 'error', constructorAction: 'error' } as const;

const isBlank = (text: string) => text.trim() === '';

/**
 * A body's value: undefined for a body of blanks (many clients send `content-type:
 * application/json` with an empty body on DELETE and GET: that is no body, not malformed JSON),
 * a shape problem before anything is built, or `invalid` for what is not JSON or would set an
 * object's prototype (`__proto__`, `constructor.prototype`).
 */
export function readJson(bytes: Buffer, limits: JsonShapeLimits): JsonRead {
  const problem = jsonShapeProblem(bytes, limits);
  if (problem) return { problem };
  const text = bytes.toString('utf8');
  if (isBlank(text)) return { value: undefined };
  try {
    return { value: secureJson.parse(text, null, PROTOTYPE_POISONING) };
  } catch {
    return { invalid: true };
  }
}

/** The thread's task: a body arrives as a Uint8Array (a Buffer loses its class in the clone). */
export const readJsonBody = poolTask((input: { bytes: Uint8Array; limits: JsonShapeLimits }): JsonRead => {
  const { bytes } = input;
  return readJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), input.limits);
});
