import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';

@ObjectType()
export class VerificationListStatus {
  @Field({ description: 'uploading, created, verifying, verified, failed, canceled or paused' }) name!: string;
  @Field(() => Int, { description: 'Addresses verified so far' }) count!: number;
}

@ObjectType({ description: 'How many addresses of the list ended with each result.' })
export class VerificationListStatistics {
  @Field(() => Int) valid!: number;
  @Field(() => Int) catch_all!: number;
  @Field(() => Int) mailbox_full!: number;
  @Field(() => Int) role_based!: number;
  @Field(() => Int) unknown!: number;
  @Field(() => Int) syntax_error!: number;
  @Field(() => Int) typo!: number;
  @Field(() => Int) mailbox_not_found!: number;
  @Field(() => Int) disposable!: number;
  @Field(() => Int) mailbox_blocked!: number;
  @Field(() => Int) failed!: number;
}

@ObjectType({ description: 'One address of a list and its result (null until verified).' })
export class VerificationListResult {
  @Field() address!: string;
  @Field(() => String, { nullable: true }) result!: string | null;
}

/** The verification lists' pager: no `last_page`/`total`, and `per_page` printed as a string (COMPAT.md). */
@ObjectType()
export class VerificationListPageMeta {
  @Field(() => Int) current_page!: number;
  @Field(() => Int, { nullable: true }) from!: number | null;
  @Field() per_page!: string;
  @Field(() => Int, { nullable: true }) to!: number | null;
}

@ObjectType()
export class VerificationListResultsPage {
  @Field(() => [VerificationListResult]) data!: VerificationListResult[];
  @Field(() => VerificationListPageMeta) meta!: VerificationListPageMeta;
}

@ObjectType()
export class EmailVerificationListType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => Int) total!: number;
  @Field(() => IsoTimestamp, { nullable: true }) verification_started!: Date | null;
  @Field(() => IsoTimestamp, { nullable: true }) verification_ended!: Date | null;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field(() => VerificationListStatus) status!: VerificationListStatus;
  @Field({ description: 'How the addresses arrived (api)' }) source!: string;
  @Field(() => VerificationListStatistics) statistics!: VerificationListStatistics;
  @Field(() => VerificationListResultsPage, { nullable: true, description: 'The addresses, paged; only with detailed=true' })
  emails!: VerificationListResultsPage | null;
}

@ObjectType()
export class VerificationListsPage {
  @Field(() => [EmailVerificationListType]) data!: EmailVerificationListType[];
  @Field(() => VerificationListPageMeta) meta!: VerificationListPageMeta;
}

@ObjectType()
export class VerificationListMessage {
  @Field() message!: string;
}
