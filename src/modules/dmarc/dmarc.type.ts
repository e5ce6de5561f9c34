import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { DmarcMonitor } from './dmarc.entity.js';

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
}

export function toDmarcMonitor(m: DmarcMonitor): DmarcMonitorType {
  return {
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
