import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { MaxLen, OneOf } from '../../graphql/validation.js';
import { AUDIT_ACTIONS } from './audit.record.js';

const MOMENT = 'ISO 8601 (UTC unless an offset is given) or a Unix timestamp; inclusive.';

@ArgsType()
export class AuditEventListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only this action, e.g. token.paused.' })
  @OneOf(AUDIT_ACTIONS)
  action?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only events about this token, SMTP user, webhook, user or invite.' })
  @MaxLen(64)
  subject_id?: string | null;

  @Field(() => String, { nullable: true, description: `Events at or after this. ${MOMENT}` })
  @MaxLen(40)
  date_from?: string | null;

  @Field(() => String, { nullable: true, description: `Events at or before this; not before date_from. ${MOMENT}` })
  @MaxLen(40)
  date_to?: string | null;
}
