import { TxEvent } from '../../core/events.js';
import type { AppServices } from '../../core/services.js';

/**
 * A domain's sending was switched back on (`send_paused` turned off), raised in the transaction
 * that did it. The sending module handles it: the messages held while it was paused go out,
 * queued with the change that releases them. Domains thus need nothing of sending, which needs
 * the domain entity.
 */
export const domainSendingResumed = new TxEvent<{ domain_id: string }, Pick<AppServices, 'boss'>>('domain.sending_resumed');
