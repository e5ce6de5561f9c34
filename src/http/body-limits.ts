import type { Config } from '../config/index.js';

const MB = 1024 * 1024;

export interface BodyRoute {
  method: 'POST' | 'PUT';
  /** fastify route syntax; /v1 paths also match with a trailing slash, as the /v1 router does. */
  url: string;
  bodyLimit: number;
}

/**
 * Routes whose bodies may be bigger than DEFAULT_BODY_BYTES, the limit of every other route.
 * fastify stops reading a body at its route's limit (at once when Content-Length says so).
 */
export function largeBodyRoutes(config: Pick<Config, 'MAX_BODY_BYTES' | 'DEFAULT_BODY_BYTES'>): {
  graphql: number;
  v1: BodyRoute[];
} {
  const max = config.MAX_BODY_BYTES;
  const atLeast = (bytes: number) => Math.min(max, Math.max(config.DEFAULT_BODY_BYTES, bytes));
  const v1: BodyRoute[] = [
    // text and html up to 2 MB each, attachments up to 25 MB decoded each (34 MB in base64).
    { method: 'POST', url: '/v1/email', bodyLimit: max },
    { method: 'POST', url: '/v1/bulk-email', bodyLimit: max },
    // A report file up to DMARC_MAX_REPORT_BYTES (10 MiB by default), in base64.
    { method: 'POST', url: '/v1/dmarc-monitoring/:monitor_id/reports', bodyLimit: max },
    // 10,000 addresses of up to 320 characters.
    { method: 'POST', url: '/v1/email-verification', bodyLimit: atLeast(4 * MB) },
    { method: 'POST', url: '/v1/email-verification/:email_verification_id/emails', bodyLimit: atLeast(4 * MB) },
    // A template's html and text, 2 MB each like a send's.
    { method: 'POST', url: '/v1/templates', bodyLimit: atLeast(5 * MB) },
    { method: 'PUT', url: '/v1/templates/:template_id', bodyLimit: atLeast(5 * MB) },
    { method: 'POST', url: '/v1/templates/:template_id/translations', bodyLimit: atLeast(5 * MB) },
    { method: 'PUT', url: '/v1/templates/:template_id/translations/:language', bodyLimit: atLeast(5 * MB) },
  ];
  // One GraphQL endpoint carries every mutation, send_email with its attachments included.
  return { graphql: max, v1: v1.flatMap((r) => [r, { ...r, url: `${r.url}/` }]) };
}

/** fastify's code for a body over its route's limit. */
export const BODY_TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';

export function bodyTooLargeMessage(limit: number): string {
  return `The request body is too large (limit ${limit} bytes).`;
}
