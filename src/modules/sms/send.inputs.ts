import { ArgsType, Field, InputType } from 'type-graphql';
import { JSONObject } from '../../graphql/scalars.js';
import { MaxItems, MaxLen } from '../../graphql/validation.js';

export const SMS_LIMITS = { to: 50, text: 2048 } as const;

@InputType('SmsPersonalizationInput')
export class SmsPersonalizationInput {
  @Field({ description: 'One of the `to` numbers; its `{{var}}`s are filled from `data`.' })
  phone_number!: string;

  @Field(() => JSONObject)
  data!: Record<string, unknown>;
}

@ArgsType()
export class SendSmsArgs {
  @Field({ description: 'One of the account\'s SMS numbers (E.164), not paused.' })
  from!: string;

  @Field(() => [String], { description: '1 to 50 distinct E.164 numbers.' })
  @MaxItems(SMS_LIMITS.to)
  to!: string[];

  @Field({ description: 'At most 2048 characters; `{{var}}` is replaced per recipient.' })
  @MaxLen(SMS_LIMITS.text)
  text!: string;

  @Field(() => [SmsPersonalizationInput], { nullable: true })
  @MaxItems(SMS_LIMITS.to)
  personalization?: SmsPersonalizationInput[] | null;
}
