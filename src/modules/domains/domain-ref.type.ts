import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { Domain } from './domain.entity.js';

/** The short domain object nested in other resources (identities, tokens, monitors). */
@ObjectType()
export class DomainRef {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

export function toDomainRef(d: Domain): DomainRef {
  return { id: d.id, name: d.name, created_at: d.created_at, updated_at: d.updated_at };
}
