import { Field, ObjectType } from 'type-graphql';

@ObjectType('SuppressedRecipient')
export class SuppressedRecipient {
  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => [String], { description: 'on_hold, hard_bounced, unsubscribed, spam_complained or blocklisted' })
  reasons!: string[];
}

@ObjectType('SendWarning')
export class SendWarningType {
  @Field({ description: 'SOME_SUPPRESSED, or ALL_SUPPRESSED when no recipient is left' })
  type!: string;

  @Field()
  warning!: string;

  @Field(() => [SuppressedRecipient])
  recipients!: SuppressedRecipient[];
}

/** What POST /v1/email answers with headers and, when there are warnings, a JSON body. */
@ObjectType('SendEmailResult')
export class SendEmailResult {
  @Field({ description: 'The x-message-id of /v1: pass it as message_id to the email log.' })
  message_id!: string;

  @Field({ description: 'The domain has sending paused: the message waits until it is switched back on.' })
  send_paused!: boolean;

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field(() => [SendWarningType])
  warnings!: SendWarningType[];
}
