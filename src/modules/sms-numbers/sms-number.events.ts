import { TxEvent } from '../../core/events.js';
import type { AppServices } from '../../core/services.js';

/**
 * A paused number was unpaused, raised in the transaction that unpaused it. The sms module
 * handles it (sms/send.service.ts): texts that waited for the number go out.
 */
export const smsNumberResumed = new TxEvent<{ sms_number_id: string }, Pick<AppServices, 'boss'>>('sms_number.resumed');
