import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp, JSONObject, PlainTimestamp } from '../../graphql/scalars.js';
import { DomainRef } from '../domains/domain-ref.type.js';

@ObjectType('TemplateCategory', { description: 'A named group of templates.' })
export class TemplateCategoryType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType({ description: 'Sending totals of the template\'s domain.' })
export class TemplateDomainTotals {
  @Field(() => Int) hard_bounced!: number;
  @Field(() => Int) soft_bounced!: number;
  @Field(() => Int) sent!: number;
  @Field(() => Int) delivered!: number;
}

@ObjectType({ description: 'The domain nested in a single template, with its sending totals.' })
export class TemplateDomain extends DomainRef {
  @Field(() => TemplateDomainTotals) totals!: TemplateDomainTotals;
}

@ObjectType({ description: 'Emails sent with the template.' })
export class TemplateStats {
  @Field(() => Int) total!: number;
  @Field(() => Int) queued!: number;
  @Field(() => Int) sent!: number;
  @Field(() => Int) rejected!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => IsoTimestamp, { nullable: true }) last_email_sent_at!: Date | null;
}

/** Fields every template shape has; the shapes differ in their timestamp format. */
@ObjectType()
abstract class TemplateCore {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field({ description: 'html' }) type!: string;
  @Field(() => String, { nullable: true }) image_path!: string | null;
  @Field(() => [String]) tags!: string[];
  @Field(() => JSONObject, { nullable: true, description: 'The variables the template reads from personalization data, as its engine (Liquid) sees them, each null.' })
  variables!: Record<string, unknown> | null;
}

@ObjectType({ description: 'A template as lists show it.' })
export class TemplateListItem extends TemplateCore {
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
}

@ObjectType('Template', { description: 'One template, with its category, domain and sending stats.' })
export class TemplateType extends TemplateCore {
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field(() => TemplateCategoryType, { nullable: true }) category!: TemplateCategoryType | null;
  @Field(() => [TemplateCategoryType], { description: 'Every category of the template, in the order given; /v1 shows only the first, as `category`.' })
  categories!: TemplateCategoryType[];
  @Field(() => TemplateDomain, { nullable: true }) domain!: TemplateDomain | null;
  @Field(() => TemplateStats) template_stats!: TemplateStats;
  // The content, for editors built on GraphQL (the console). SPEC.md's template has none, so /v1
  // leaves these out (the module's hiddenOnRest).
  @Field(() => String, { nullable: true, description: 'The default subject a send may leave out. GraphQL only.' })
  subject!: string | null;
  @Field({ description: 'The HTML content (Liquid). GraphQL only.' }) html!: string;
  @Field({ description: 'The plain-text content (Liquid). GraphQL only.' }) text!: string;
}

@ObjectType()
export class TemplatePage {
  @Field(() => [TemplateListItem]) data!: TemplateListItem[];
  @Field(() => PageMeta) meta!: PageMeta;
}
