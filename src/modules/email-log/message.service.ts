import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { toDomain } from '../domains/domain.mapper.js';
import { notQueuedOf } from '../domains/domain.service.js';
import { Message } from '../messages/message.entity.js';
import { messageShownFilter } from '../messages/message.status.js';
import { toLoggedEmail } from './email.mapper.js';
import { EmailLogRepository } from './email.repository.js';
import type { MessageListArgs } from './message.inputs.js';
import type { MessageDetail, MessageListItem } from './message.type.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf } from '../../core/page.js';

/** Accepted sends, newest first; a message's emails are the email log rows of that send. */
export class MessageService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: MessageListArgs): Promise<MessageListItem[]> {
    const rows = await this.em.find(Message, { ...visibleTo(auth), ...messageShownFilter(new Date()) }, {
      fields: ['id', 'created_at', 'updated_at'],
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return rows.map((m) => ({ id: m.id, created_at: m.created_at, updated_at: m.updated_at }));
  }

  async get(auth: Actor, messageId: string): Promise<MessageDetail> {
    const message = await findOwned(this.em, Message, auth, { id: messageId, ...messageShownFilter(new Date()) }, ['domain']);
    const emails = await new EmailLogRepository(this.em).ofMessage(message.id);
    return {
      id: message.id,
      created_at: message.created_at,
      updated_at: message.updated_at,
      emails: emails.map(toLoggedEmail),
      domain: toDomain(message.domain, await notQueuedOf(this.em, message.domain.id)),
    };
  }
}
