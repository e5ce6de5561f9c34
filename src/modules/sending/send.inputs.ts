import { ArgsType, Field, InputType } from 'type-graphql';
import { GraphQLScalarType, Kind } from 'graphql';
import { JSONObject } from '../../graphql/scalars.js';
import { sendAtValue } from './send.shape.js';

/** `send_at`: a Unix timestamp (integer) or an ISO 8601 string; kept as given, checked by the service. */
export const SendAt = new GraphQLScalarType<number | string, number | string>({
  name: 'SendAt',
  description: 'A Unix timestamp (integer seconds) or an ISO 8601 date-time string.',
  serialize: (v) => v as number | string,
  parseValue: sendAtValue,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT) return Number(ast.value);
    if (ast.kind === Kind.STRING) return ast.value;
    throw new TypeError('send_at must be an integer or a string');
  },
});

@InputType('EmailAddressInput')
export class AddressInput {
  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;
}

@InputType('AttachmentInput')
export class AttachmentInput {
  @Field({ description: 'Base64; at most 25 MB once decoded.' })
  content!: string;

  @Field()
  filename!: string;

  @Field(() => String, { nullable: true, description: '`inline` or `attachment` (the default).' })
  disposition?: string | null;

  @Field(() => String, { nullable: true, description: 'Content-ID for `cid:` references; needs disposition `inline`.' })
  id?: string | null;
}

@InputType('PersonalizationInput')
export class PersonalizationInput {
  @Field()
  email!: string;

  @Field(() => JSONObject)
  data!: Record<string, unknown>;
}

@InputType('HeaderInput')
export class HeaderInput {
  @Field()
  name!: string;

  @Field()
  value!: string;
}

/** The body of POST /v1/email (SPEC.md "Sending email"); every rule is checked by send.validate.ts. */
@ArgsType()
export class SendEmailArgs {
  @Field(() => AddressInput, { nullable: true })
  from?: AddressInput | null;

  @Field(() => [AddressInput])
  to!: AddressInput[];

  @Field(() => [AddressInput], { nullable: true })
  cc?: AddressInput[] | null;

  @Field(() => [AddressInput], { nullable: true })
  bcc?: AddressInput[] | null;

  @Field(() => AddressInput, { nullable: true })
  reply_to?: AddressInput | null;

  @Field(() => String, { nullable: true })
  subject?: string | null;

  @Field(() => String, { nullable: true })
  text?: string | null;

  @Field(() => String, { nullable: true })
  html?: string | null;

  @Field(() => [AttachmentInput], { nullable: true })
  attachments?: AttachmentInput[] | null;

  @Field(() => String, { nullable: true })
  template_id?: string | null;

  @Field(() => String, { nullable: true })
  language?: string | null;

  @Field(() => [String], { nullable: true })
  tags?: string[] | null;

  @Field(() => [PersonalizationInput], { nullable: true })
  personalization?: PersonalizationInput[] | null;

  @Field(() => Boolean, { nullable: true })
  precedence_bulk?: boolean | null;

  @Field(() => SendAt, { nullable: true })
  send_at?: number | string | null;

  @Field(() => String, { nullable: true })
  in_reply_to?: string | null;

  @Field(() => [String], { nullable: true })
  references?: string[] | null;

  @Field(() => JSONObject, { nullable: true, description: 'Keys track_clicks, track_opens, track_content; boolean values.' })
  settings?: Record<string, unknown> | null;

  @Field(() => [HeaderInput], { nullable: true })
  headers?: HeaderInput[] | null;

  @Field(() => String, { nullable: true })
  list_unsubscribe?: string | null;
}
