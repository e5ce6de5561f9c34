import { json, jsonObject, type Fields } from '../../core/json-shape.js';

/** `send_at` as given: a Unix timestamp (an integer) or a string, checked by the service. */
export function sendAtValue(value: unknown): number | string {
  if ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'string') return value;
  throw new TypeError('send_at must be an integer or a string');
}

const address = json.object({ email: json.required(json.string), name: json.string });
const strings = json.list(json.required(json.string));

/**
 * The JSON shape of SendEmailArgs (send.inputs.ts), for sends that arrive as JSON outside the
 * surfaces: the items of a bulk send, read by its job. test/sending/send-shape.test.ts keeps it
 * equal to the send_email arguments of the schema.
 */
export const SEND_EMAIL_SHAPE: Fields = {
  from: address,
  to: json.required(json.list(json.required(address))),
  cc: json.list(json.required(address)),
  bcc: json.list(json.required(address)),
  reply_to: address,
  subject: json.string,
  text: json.string,
  html: json.string,
  attachments: json.list(
    json.required(
      json.object({
        content: json.required(json.string),
        filename: json.required(json.string),
        disposition: json.string,
        id: json.string,
      }),
    ),
  ),
  template_id: json.string,
  language: json.string,
  tags: strings,
  personalization: json.list(
    json.required(json.object({ email: json.required(json.string), data: json.required(json.scalar('JSONObject', jsonObject)) })),
  ),
  precedence_bulk: json.boolean,
  send_at: json.scalar('SendAt', sendAtValue),
  in_reply_to: json.string,
  references: strings,
  settings: json.scalar('JSONObject', jsonObject),
  headers: json.list(json.required(json.object({ name: json.required(json.string), value: json.required(json.string) }))),
  list_unsubscribe: json.string,
};
