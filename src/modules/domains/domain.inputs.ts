import { ArgsType, Field, ID } from 'type-graphql';
import { Matches, registerDecorator } from 'class-validator';
import { PageArgs } from '../../graphql/pagination.js';
import { MaxLen } from '../../graphql/validation.js';
import { label } from '../../core/errors.js';

const Subdomain = () =>
  Matches(/^[a-z0-9]{1,63}$/i, { message: (a) => `The ${label(a.property)} may only contain letters and numbers.` });

/** Unsubscribe footers must carry the link's placeholder, or the link would silently vanish. */
const HasUnsubscribePlaceholder = () => (object: object, propertyName: string) =>
  registerDecorator({
    name: 'hasUnsubscribePlaceholder',
    target: object.constructor,
    propertyName,
    validator: {
      validate: (v: unknown) => typeof v !== 'string' || /\{\{\s*unsubscribe\s*\}\}/.test(v),
      defaultMessage: (a) => `The ${label(a!.property)} must contain the {{unsubscribe}} placeholder.`,
    },
  });

@ArgsType()
export class DomainListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true }) verified?: boolean | null;
}

@ArgsType()
export class DomainIdArgs {
  @Field(() => ID) domain_id!: string;
}

@ArgsType()
export class CreateDomainArgs {
  @Field() @MaxLen(253) name!: string;
  @Field(() => String, { nullable: true }) @Subdomain() return_path_subdomain?: string | null;
  @Field(() => String, { nullable: true }) @Subdomain() custom_tracking_subdomain?: string | null;
  @Field(() => String, { nullable: true }) @Subdomain() inbound_routing_subdomain?: string | null;
}

@ArgsType()
export class DomainSettingsArgs {
  @Field(() => ID) domain_id!: string;
  @Field(() => Boolean, { nullable: true }) send_paused?: boolean | null;
  @Field(() => Boolean, { nullable: true }) track_clicks?: boolean | null;
  @Field(() => Boolean, { nullable: true }) track_opens?: boolean | null;
  @Field(() => Boolean, { nullable: true }) track_unsubscribe?: boolean | null;
  @Field(() => String, { nullable: true }) @MaxLen(5000) @HasUnsubscribePlaceholder()
  track_unsubscribe_html?: string | null;
  @Field(() => Boolean, { nullable: true }) track_unsubscribe_html_enabled?: boolean | null;
  @Field(() => String, { nullable: true }) @MaxLen(5000) @HasUnsubscribePlaceholder()
  track_unsubscribe_plain?: string | null;
  @Field(() => Boolean, { nullable: true }) track_unsubscribe_plain_enabled?: boolean | null;
  @Field(() => Boolean, { nullable: true }) track_content?: boolean | null;
  @Field(() => Boolean, { nullable: true }) custom_tracking_enabled?: boolean | null;
  @Field(() => String, { nullable: true }) @Subdomain() custom_tracking_subdomain?: string | null;
  @Field(() => String, { nullable: true }) @Subdomain() return_path_subdomain?: string | null;
  @Field(() => Boolean, { nullable: true }) inbound_routing_enabled?: boolean | null;
  @Field(() => String, { nullable: true }) @Subdomain() inbound_routing_subdomain?: string | null;
  @Field(() => Boolean, { nullable: true }) precedence_bulk?: boolean | null;
  @Field(() => Boolean, { nullable: true }) ignore_duplicated_recipients?: boolean | null;
}
