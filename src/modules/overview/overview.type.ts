import { Field, Int, ObjectType } from 'type-graphql';
import { ApiQuota } from '../quota/quota.type.js';

/** The steps of setting up sending, in the order the console's checklist shows them. */
export const SETUP_STEPS = ['domain', 'verified', 'token', 'email', 'webhook'] as const;
export type SetupKey = (typeof SETUP_STEPS)[number];

@ObjectType({ description: 'One step of setting up sending and whether the account has taken it.' })
export class SetupStep {
  @Field(() => String, { description: 'domain (a domain added), verified (a domain verified), token (an API token made), email (an email sent), webhook (a webhook added).' })
  key!: SetupKey;

  @Field(() => Boolean, { nullable: true, description: 'Null when the caller may not see what the step counts (its scope is missing).' })
  done!: boolean | null;
}

@ObjectType({ description: 'Emails still to be delivered (queued, scheduled, paused or deferred).' })
export class WaitingEmails {
  @Field(() => Int) count!: number;

  @Field({ description: 'True when only the latest emails were counted and more may be waiting beyond them.' })
  more!: boolean;
}

@ObjectType({ description: "What an account's sending looks like now: the console's landing page. Counts cover the caller's domains." })
export class Overview {
  @Field({ description: 'Mail is kept by the capture transport (MAIL_TRANSPORT=capture) and never leaves the machine.' })
  sandbox!: boolean;

  @Field(() => WaitingEmails, { nullable: true, description: 'Emails accepted in the last 3 days still to be delivered; null without activity_read.' })
  waiting!: WaitingEmails | null;

  @Field(() => Int, { nullable: true, description: 'Webhooks paused, or with a failed delivery attempt in the last 24 hours; null without webhooks_full.' })
  webhooks_failing!: number | null;

  @Field(() => [SetupStep])
  setup!: SetupStep[];
}

@ObjectType({ description: "The account's plan and what it has used: the console's plan and usage page." })
export class AccountUsage {
  @Field({ description: 'free, starter, professional or enterprise' }) plan!: string;

  @Field(() => Int, { description: 'Days the mail it sends now is kept, and its logs (docs/api-behaviour.md, Retention).' })
  retention_days!: number;

  @Field(() => Int, { nullable: true, description: 'Email verification credits left; null without email_verification_read.' })
  verification_credits!: number | null;

  @Field(() => ApiQuota, { nullable: true, description: 'The daily API quota (as api_quota); null without tokens_full.' })
  api_quota!: ApiQuota | null;
}
