import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';

@ArgsType()
export class RecipientListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

@ArgsType()
export class RecipientIdArgs {
  @Field(() => ID) recipient_id!: string;
}

/** A domain's recipients (GET /v1/domains/{domain_id}/recipients): the list, limited to that domain. */
@ArgsType()
export class DomainRecipientsArgs extends PageArgs {
  @Field(() => ID) domain_id!: string;
}
