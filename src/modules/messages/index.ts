import type { ModuleManifest } from '../module.js';
import { Message, MessageAttachment, Email, IdempotencyKey } from './message.entity.js';

export const messagesModule: ModuleManifest = {
  name: 'messages',
  entities: [Message, MessageAttachment, Email, IdempotencyKey],
};
