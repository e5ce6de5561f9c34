import type { RouteTable } from '../../../rest-mapping/types.js';

interface SendResult {
  message_id: string;
  send_paused: boolean;
  message: string | null;
  warnings: unknown[];
}

/**
 * SPEC.md "Sending email": 202 with an empty text/plain body and `x-message-id`, plus
 * `x-send-paused: true` when the domain has sending paused; a JSON `{message, warnings}` body only
 * when some recipients were suppressed.
 */
function sendAnswer(r: SendResult) {
  const headers: Record<string, string> = { 'x-message-id': r.message_id };
  if (r.send_paused) headers['x-send-paused'] = 'true';
  if (r.warnings.length) return { status: 202, headers, body: { message: r.message, warnings: r.warnings } };
  return { status: 202, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: '' };
}

const sendDoc = {
  description: 'Accepted: an empty text/plain body, or `{message, warnings}` when some recipients are suppressed.',
  headers: {
    'x-message-id': { description: 'The message id; `message_id` of GET /v1/emails.', schema: { type: 'string' } },
    'x-send-paused': { description: '`true` when the domain has sending paused.', schema: { type: 'string', enum: ['true'] } },
  },
  content: {
    'text/plain': { schema: { type: 'string', maxLength: 0 } },
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          warnings: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                type: { type: 'string', enum: ['SOME_SUPPRESSED', 'ALL_SUPPRESSED'] },
                warning: { type: 'string' },
                recipients: { type: 'array', items: { $ref: '#/components/schemas/SuppressedRecipient' } },
              },
            },
          },
        },
      },
    },
  },
};

export const emailRoutes: RouteTable = {
  'Mutation.send_email': { method: 'POST', path: '/email', status: 202, envelope: 'raw', respond: sendAnswer, responseDoc: sendDoc },
};
