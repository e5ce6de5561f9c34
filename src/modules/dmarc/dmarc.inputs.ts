import { ArgsType, Field, ID, Int } from 'type-graphql';
import { MaxInt, MaxLen, MinInt, OneOf } from '../../graphql/validation.js';
import { DMARC_CATEGORIES, REPORT_SOURCE_STATUSES, type DmarcCategory, type ReportSourceStatus } from './dmarc.constants.js';

export const DMARC_SORTS = ['created_at', 'updated_at', 'dmarc_valid', 'spf_status'] as const;
export const ORDERS = ['asc', 'desc'] as const;

/** Monitor lists take limit 1..100 (SPEC.md Limits), not the common 10..100. */
@ArgsType()
export class DmarcListArgs {
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) @MinInt(1) @MaxInt(100) limit: number = 25;
  @Field(() => String, { nullable: true, description: 'Searches the domain name.' }) @MaxLen(255) query?: string | null;
  @Field(() => String, { nullable: true, description: 'created_at, updated_at, dmarc_valid or spf_status' })
  @OneOf(DMARC_SORTS)
  sort_by?: string | null;
  @Field(() => String, { nullable: true, description: 'asc or desc' }) @OneOf(ORDERS) order?: string | null;
}

@ArgsType()
export class DmarcMonitorIdArgs {
  @Field(() => ID) monitor_id!: string;
}

@ArgsType()
export class CreateDmarcMonitorArgs {
  @Field(() => ID, { description: 'A verified sending domain of the account without a monitor yet.' })
  domain_id!: string;
}

@ArgsType()
export class UpdateDmarcMonitorArgs {
  @Field(() => ID) monitor_id!: string;
  @Field({ description: 'A DMARC record (RFC 7489), e.g. "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com".' })
  @MaxLen(1000)
  wanted_dmarc_record!: string;
}


const DATE_HELP = 'UTC: YYYY-MM-DD (a whole day), YYYY-MM-DD HH:MM:SS or a Unix timestamp.';

@ArgsType()
export class DmarcReportArgs {
  @Field(() => ID) monitor_id!: string;
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) @MinInt(1) @MaxInt(100) limit: number = 25;
  @Field(() => String, { nullable: true, description: `Reports whose period begins at or after this. ${DATE_HELP}` }) date_from?: string | null;
  @Field(() => String, { nullable: true, description: `Reports whose period begins at or before this (a day: through its end); after date_from, not in the future. ${DATE_HELP}` })
  date_to?: string | null;
  @Field(() => String, { nullable: true, description: 'Part of the source IP, its reverse DNS name or the From domain.' }) @MaxLen(255) search?: string | null;
  @Field(() => String, { nullable: true, description: 'favorites (IPs marked favorite), compliant (mail that passed DMARC) or non_compliant (mail that failed it).' })
  @OneOf(DMARC_CATEGORIES)
  category?: DmarcCategory | null;
  @Field(() => String, { nullable: true, description: 'The reporting organisation (org_name), exactly.' }) @MaxLen(255) report_source?: string | null;
}

@ArgsType()
export class DmarcIpReportArgs extends DmarcReportArgs {
  @Field({ description: 'The source IP address.' }) @MaxLen(45) ip!: string;
}

@ArgsType()
export class DmarcReportSourcesArgs {
  @Field(() => ID) monitor_id!: string;
  @Field({ description: DATE_HELP }) date_from!: string;
  @Field({ description: `After date_from, not in the future. ${DATE_HELP}` }) date_to!: string;
  @Field(() => String, { nullable: true, description: 'accepted, rejected or quarantined: only reports with mail the receiver treated so.' })
  @OneOf(REPORT_SOURCE_STATUSES)
  status?: ReportSourceStatus | null;
}

@ArgsType()
export class DmarcFavoriteArgs {
  @Field(() => ID) monitor_id!: string;
  @Field({ description: 'The source IP address.' }) @MaxLen(45) ip!: string;
}

@ArgsType()
export class UploadDmarcReportArgs {
  @Field(() => ID) monitor_id!: string;
  @Field({ description: 'The report file in base64 (XML, .xml.gz or .zip, told apart by content), or the XML itself.' })
  report!: string;
}
