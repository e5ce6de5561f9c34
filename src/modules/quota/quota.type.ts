import { Field, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { QuotaStatus } from './quota.service.js';

@ObjectType({ description: "The account's daily API quota (UTC day), over all its tokens." })
export class ApiQuota {
  @Field(() => Int, { description: 'Requests allowed per UTC day.' }) quota!: number;
  @Field(() => Int, { description: 'Requests left today.' }) remaining!: number;
  @Field(() => IsoTimestamp, { description: 'When the quota starts again: the next UTC midnight.' }) reset!: Date;
}

export function toApiQuota(s: QuotaStatus): ApiQuota {
  return { quota: s.quota, remaining: s.remaining, reset: s.reset };
}
