import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { smsProvider } from '../sms/sms.provider.js';
import { receiveSmsInbound } from './sms-inbound.receive.js';
import { registerFormRoutes } from '../../lib/form-routes.js';

const FORM_LIMIT = 64 * 1024;
/** Twilio reads the answer as TwiML: an empty Response sends no reply text. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Where Twilio posts the texts our numbers receive (the number's "A message comes in" webhook). */
export function registerSmsInboundRoutes(app: FastifyInstance, services: AppServices): void {
  registerFormRoutes(app, FORM_LIMIT, (scope) => {

    scope.post('/sms/provider/twilio/inbound', async (req, reply) => {
      const { config } = services;
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, string>;
      // Twilio signs the URL it was configured with: our public URL, not the socket's address.
      const url = `${config.PUBLIC_URL.replace(/\/+$/, '')}${req.url}`;
      const text = smsProvider(config).parseInbound({ url, headers: req.headers, body });
      if (!text) return reply.status(403).send({ message: 'This action is unauthorized.' });
      const { outcome } = await receiveSmsInbound(services.orm.em.fork(), text);
      if (outcome === 'unknown_number') req.log.warn({ to: text.to }, 'inbound text for a number no account has');
      return reply.status(200).header('content-type', 'text/xml; charset=utf-8').send(EMPTY_TWIML);
    });
  });
}
