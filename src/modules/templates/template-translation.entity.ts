import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Template } from './template.entity.js';

/**
 * A template's content in one of SPEC.md's languages: used instead of the template's own when a
 * send names that `language`. It belongs to its template (deleted with it) and is reached only
 * through it, so the template's account and domain decide who may see it.
 */
@Entity({ tableName: 'template_translations' })
@Unique({ properties: ['template', 'language'] })
export class TemplateTranslation extends BaseEntity {
  @ManyToOne(() => Template, { deleteRule: 'cascade' })
  template!: Template;

  @Property({ type: 'string', length: 10 })
  language!: string;

  /** The subject of sends in this language that give none; null: the template's default subject. */
  @Property({ type: 'string', length: 998, nullable: true })
  subject: string | null = null;

  @Property({ type: 'text' })
  html!: string;

  @Property({ type: 'text' })
  text!: string;
}
