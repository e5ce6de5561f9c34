/**
 * The id the console sends for one of its operations: the sha256 codegen gave the document
 * (`__meta__.hash`, `sha256:<hex>` in persisted-documents.json, which the server loads with the
 * console); APQ's id is the hex.
 */
export function operationId(document: unknown): string | undefined {
  return (document as { __meta__?: { hash?: string } }).__meta__?.hash?.replace(/^sha256:/, '');
}
