import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { DmarcMonitor } from './dmarc.entity.js';
import { reportAddress } from './report-address.js';

@ObjectType('DmarcMonitor', { description: "A sending domain's published DMARC and SPF records, checked through DNS." })
export class DmarcMonitorType {
  @Field(() => ID) id!: string;
  @Field({ description: 'The TXT record found at _dmarc.<domain>; empty when none.' }) dmarc_record!: string;
  @Field({ description: 'The record the domain should publish.' }) wanted_dmarc_record!: string;
  @Field({ description: 'True when exactly one DMARC record is published and it is well-formed.' }) dmarc_valid!: boolean;
  @Field(() => IsoTimestamp, { nullable: true }) dmarc_record_checked_at!: Date | null;
  @Field(() => String, { nullable: true }) spf_record!: string | null;
  @Field({ description: 'valid, invalid, multiple or not_found' }) spf_status!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field(() => DomainRef) domain!: DomainRef;
  @Field({ description: 'Where aggregate reports for this domain go: name it in the rua tag (the default wanted record does). Not on /v1.' })
  report_address!: string;
}

export function toDmarcMonitor(m: DmarcMonitor, config: Parameters<typeof reportAddress>[0]): DmarcMonitorType {
  return {
    report_address: reportAddress(config, m.report_key),
    id: m.id,
    dmarc_record: m.dmarc_record,
    wanted_dmarc_record: m.wanted_dmarc_record,
    dmarc_valid: m.dmarc_valid,
    dmarc_record_checked_at: m.dmarc_record_checked_at,
    spf_record: m.spf_record,
    spf_status: m.spf_status,
    created_at: m.created_at,
    updated_at: m.updated_at,
    domain: toDomainRef(m.domain),
  };
}

@ObjectType('DmarcReportIp', { description: 'Aggregate report figures of one source IP over the reports asked for.' })
export class DmarcReportIpType {
  @Field() ip_address!: string;
  @Field(() => Int, { description: 'Messages reported from this IP.' }) total_volume!: number;
  @Field({ description: 'Share of the volume that passed DMARC (aligned SPF or DKIM), e.g. "66.67%".' }) passed_dmarc!: string;
  @Field({ description: 'Share of the volume with a passing SPF check, aligned or not.' }) passed_spf!: string;
  @Field({ description: 'Share of the volume with a passing DKIM signature, aligned or not.' }) passed_dkim!: string;
  @Field({ description: 'The From domain most of its mail used.' }) domain!: string;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { nullable: true }) country_code!: string | null;
  @Field(() => String, { nullable: true, description: 'Always null: the bundled geo data is country-level.' }) city!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'True when the IP is a favorite; null (absent on /v1) otherwise.' }) is_favorite!: boolean | null;
}

@ObjectType('DmarcAuthResult')
export class DmarcAuthResultType {
  @Field({ description: 'spf or dkim' }) type!: string;
  @Field({ description: 'pass, fail, softfail, neutral, none, temperror, permerror or policy' }) result!: string;
  @Field() domain!: string;
  @Field(() => String, { nullable: true, description: 'The DKIM selector; null for SPF.' }) selector!: string | null;
}

@ObjectType('DmarcReportRecord', { description: 'One record of one aggregate report for a source IP.' })
export class DmarcReportRecordType {
  @Field(() => ID) id!: string;
  @Field() ip_address!: string;
  @Field({ description: "The IP's reverse DNS name; empty when it has none (or until it is looked up)." }) ip_domain!: string;
  @Field(() => Int) total_volume!: number;
  @Field() passed_dmarc!: string;
  @Field() passed_spf!: string;
  @Field() passed_dkim!: string;
  @Field(() => String, { nullable: true }) spf_domain!: string | null;
  @Field(() => String, { nullable: true }) dkim_domain!: string | null;
  @Field() aligned_spf!: boolean;
  @Field() aligned_dkim!: boolean;
  @Field(() => IsoTimestamp, { description: 'When the report was received.' }) created_at!: Date;
  @Field({ description: 'What the receiver did: none, quarantine or reject.' }) applied_policy!: string;
  @Field(() => String, { nullable: true }) override_reason!: string | null;
  @Field(() => String, { nullable: true }) override_comment!: string | null;
  @Field({ description: 'The From domain.' }) domain!: string;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { nullable: true }) country_code!: string | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field({ description: 'The reporting organisation.' }) report_source!: string;
  @Field(() => [DmarcAuthResultType]) spf_auth!: DmarcAuthResultType[];
  @Field(() => [DmarcAuthResultType]) dkim_auth!: DmarcAuthResultType[];
}

@ObjectType('DmarcReportSource')
export class DmarcReportSourceType {
  @Field({ description: 'The reporting organisation.' }) report_source!: string;
  @Field(() => Int, { description: 'Reports received from it in the period.' }) reports!: number;
}

@ObjectType('DmarcReportReceipt', { description: 'A report file as stored.' })
export class DmarcReportReceiptType {
  @Field(() => ID) id!: string;
  @Field() report_source!: string;
  @Field({ description: 'The report_id the reporter gave it.' }) report_id!: string;
  @Field({ description: 'The domain of the published policy it reports on.' }) domain!: string;
  @Field(() => IsoTimestamp) date_from!: Date;
  @Field(() => IsoTimestamp) date_to!: Date;
  @Field(() => Int, { description: 'Records stored (one per source IP and outcome).' }) records!: number;
  @Field(() => Int) total_volume!: number;
  @Field({ description: 'True when this report had been received before; nothing new was stored.' }) duplicate!: boolean;
  @Field(() => IsoTimestamp) created_at!: Date;
}
