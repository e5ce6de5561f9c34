import { startSmtpRelay } from '../engines/smtp/server.js';
import type { Role } from './role.js';

/** The smtp role: the SMTP listener (relay for SMTP users, bounces, complaints, DMARC reports, inbound mail). */
export const smtpRole: Role = {
  name: 'smtp',
  async start({ services }) {
    const relay = await startSmtpRelay(services);
    return { smtpPort: relay.port, stop: () => relay.close() };
  },
};
