import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { JSONObject, PlainTimestamp } from '../../graphql/scalars.js';

@ObjectType()
export class DomainSettingsType {
  @Field() send_paused!: boolean;
  @Field() track_clicks!: boolean;
  @Field() track_opens!: boolean;
  @Field() track_unsubscribe!: boolean;
  @Field() track_unsubscribe_html!: string;
  @Field() track_unsubscribe_plain!: string;
  @Field() track_content!: boolean;
  @Field() custom_tracking_enabled!: boolean;
  @Field() custom_tracking_subdomain!: string;
  @Field() precedence_bulk!: boolean;
  @Field() ignore_duplicated_recipients!: boolean;
}

/** The creation response shows a few more settings (SPEC.md "Domain"). */
@ObjectType()
export class CreatedDomainSettingsType extends DomainSettingsType {
  @Field() track_unsubscribe_html_enabled!: boolean;
  @Field() track_unsubscribe_plain_enabled!: boolean;
  @Field() return_path_subdomain!: string;
  @Field() inbound_routing_enabled!: boolean;
  @Field() inbound_routing_subdomain!: string;
}

/** Fields every domain shape has. */
@ObjectType()
abstract class DomainCore {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => Boolean, { nullable: true }) dkim!: boolean | null;
  @Field(() => Boolean, { nullable: true }) spf!: boolean | null;
  @Field(() => Boolean, { nullable: true }) tracking!: boolean | null;
  @Field() is_verified!: boolean;
  @Field() is_dns_active!: boolean;
  @Field() has_not_queued_messages!: boolean;
  @Field(() => Int) not_queued_messages_count!: number;
}

/** A domain as lists show it: everything but `mx`. */
@ObjectType()
export class DomainListItem extends DomainCore {
  @Field() is_cname_verified!: boolean;
  @Field() is_cname_active!: boolean;
  @Field() is_tracking_allowed!: boolean;
  @Field(() => DomainSettingsType) domain_settings!: DomainSettingsType;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
}

@ObjectType()
export class DomainType extends DomainListItem {
  @Field(() => Boolean, { nullable: true }) mx!: boolean | null;
}

@ObjectType()
export class DomainCan {
  @Field() manage!: boolean;
}

@ObjectType()
export class CreatedDomain extends DomainCore {
  @Field(() => Boolean, { nullable: true }) mx!: boolean | null;
  @Field(() => CreatedDomainSettingsType) domain_settings!: CreatedDomainSettingsType;
  @Field(() => DomainCan) can!: DomainCan;
  @Field(() => [JSONObject], { description: 'Sending totals; empty for a new domain.' })
  totals!: Record<string, unknown>[];
}

@ObjectType()
export class DomainPage {
  @Field(() => [DomainListItem]) data!: DomainListItem[];
  @Field(() => PageMeta) meta!: PageMeta;
}

@ObjectType()
export class DnsRecord {
  @Field() hostname!: string;
  @Field() type!: string;
  @Field() value!: string;
}

@ObjectType()
export class MxDnsRecord extends DnsRecord {
  @Field(() => Int) priority!: number;
}

@ObjectType()
export class DomainDnsRecords {
  @Field(() => ID) id!: string;
  @Field(() => DnsRecord) spf!: DnsRecord;
  @Field(() => DnsRecord) dkim!: DnsRecord;
  @Field(() => DnsRecord) return_path!: DnsRecord;
  @Field(() => DnsRecord) custom_tracking!: DnsRecord;
  @Field(() => MxDnsRecord) inbound_routing!: MxDnsRecord;
}

@ObjectType()
export class DnsCheckResult {
  @Field() dkim!: boolean;
  @Field() spf!: boolean;
  @Field() mx!: boolean;
  @Field() tracking!: boolean;
  @Field() cname!: boolean;
  @Field() rp_cname!: boolean;
}

@ObjectType()
export class DomainVerification {
  @Field() message!: string;
  @Field(() => DnsCheckResult) data!: DnsCheckResult;
}
