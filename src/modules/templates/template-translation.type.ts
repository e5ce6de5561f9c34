import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp, JSONObject } from '../../graphql/scalars.js';
import type { TemplateTranslation } from './template-translation.entity.js';
import { templateVariables } from './template.engine.js';

@ObjectType('TemplateTranslation', { description: 'A template\'s content in one language, used by sends that name it.' })
export class TemplateTranslationType {
  @Field(() => ID) id!: string;
  @Field(() => ID) template_id!: string;
  @Field() language!: string;
  @Field(() => String, { nullable: true }) subject!: string | null;
  @Field() html!: string;
  @Field() text!: string;
  @Field(() => JSONObject, { nullable: true, description: 'The variables this content reads from personalization data, each null.' })
  variables!: Record<string, unknown> | null;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

export function toTemplateTranslation(t: TemplateTranslation): TemplateTranslationType {
  return {
    id: t.id,
    template_id: t.template.id,
    language: t.language,
    subject: t.subject,
    html: t.html,
    text: t.text,
    variables: templateVariables(t.subject, t.html, t.text),
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
