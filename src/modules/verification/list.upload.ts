import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { EmailVerificationList } from './list.entity.js';
import { LIST_MAX_TOTAL } from './list.inputs.js';
import { LIST_ADDRESS, UPLOADING } from './verification.statuses.js';
import { EmailVerification } from './verification.entity.js';
import { VerificationRepository } from './verification.repository.js';
import { errors, msg } from '../../core/errors.js';

/**
 * Stores addresses of a list in the order given, after any it already holds: the list's order
 * is its upload order, kept by created_at stepping a millisecond per address from the later of
 * now and the last stored address (a chunk sent soon after a big one still sorts after it).
 */
export async function storeAddresses(tx: EntityManager, accountId: string, listId: string, emails: string[]): Promise<void> {
  const last = await new VerificationRepository(tx).lastAddressAt(listId);
  const base = Math.max(Date.now(), last ? last.getTime() + 1 : 0);
  emails.forEach((address, i) => {
    const at = new Date(base + i);
    tx.create(EmailVerification, { account: accountId, kind: LIST_ADDRESS, list_id: listId, address, created_at: at, updated_at: at });
  });
  await tx.flush();
}

/**
 * Appends a chunk to an `uploading` list. The list's row is locked for the transaction, so
 * chunks sent at once are stored one after the other and `total` counts each once.
 */
export async function appendChunk(tx: EntityManager, accountId: string, listId: string, emails: string[]): Promise<void> {
  const list = await tx.findOneOrFail(EmailVerificationList, { id: listId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (list.status !== UPLOADING) throw errors.invalid('email_verification_id', notUploading(list.status));
  if (list.total + emails.length > LIST_MAX_TOTAL) {
    throw errors.invalid('emails', `A list may hold at most ${LIST_MAX_TOTAL} addresses; this one has ${list.total}.`);
  }
  list.total += emails.length;
  list.updated_at = new Date();
  await tx.flush();
  await storeAddresses(tx, accountId, listId, emails);
}

export function notUploading(status: string): string {
  return `Addresses can only be added while the list is uploading; it is ${status}.`;
}

/** Only a list with addresses can leave `uploading` (`emails` was required on create). */
export const emptyUpload = () => errors.invalid('emails', msg.required('emails'));
