import { Field, ID, ObjectType } from 'type-graphql';
import type { AsyncVerification } from '../events/verification-events.js';
import type { EmailVerification } from './verification.entity.js';

@ObjectType({ description: 'The answer of a single (synchronous) verification.' })
export class SingleEmailVerification {
  @Field({ description: 'A verification result: valid, catch_all, mailbox_full, role_based, unknown, failed, syntax_error, typo, mailbox_not_found, disposable or mailbox_blocked' })
  status!: string;
}

@ObjectType({ description: 'An asynchronous verification of one address.' })
export class AsyncEmailVerification {
  @Field(() => ID) id!: string;
  @Field() address!: string;
  @Field({ description: 'queued, completed or failed' }) status!: string;
  @Field(() => String, { nullable: true, description: 'The verification result once checked' }) result!: string | null;
  @Field(() => String, { nullable: true, description: 'Why the check could not run, when status is failed' }) error!: string | null;
}

export function toAsyncVerification(v: EmailVerification): AsyncEmailVerification & AsyncVerification {
  return { id: v.id, address: v.address, status: v.status, result: v.result, error: v.error };
}
