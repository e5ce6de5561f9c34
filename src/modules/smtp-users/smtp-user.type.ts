import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Config } from '../../config/index.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { SmtpUser as SmtpUserEntity } from './smtp-user.entity.js';

@ObjectType({ description: 'Credentials for sending through the SMTP relay on behalf of one domain.' })
export class SmtpUser {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() username!: string;
  @Field() enabled!: boolean;
  @Field(() => IsoTimestamp, { nullable: true }) accessed_at!: Date | null;
  @Field({ description: 'The SMTP host clients connect to.' }) server!: string;
  @Field(() => Int) port!: number;
  @Field(() => ID) domain_id!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType({ description: 'The creation response: the only time the password is shown.' })
export class CreatedSmtpUser extends SmtpUser {
  @Field() password!: string;
}

type SmtpConfig = Pick<Config, 'SMTP_PUBLIC_HOST' | 'SMTP_PUBLIC_PORT' | 'SMTP_PORT'>;

export function toSmtpUser(u: SmtpUserEntity, config: SmtpConfig): SmtpUser {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    enabled: u.enabled,
    accessed_at: u.accessed_at,
    server: config.SMTP_PUBLIC_HOST,
    // Behind a port mapping the public port differs from the one we listen on.
    port: config.SMTP_PUBLIC_PORT ?? config.SMTP_PORT,
    domain_id: u.domain.id,
    created_at: u.created_at,
  };
}

export function toCreatedSmtpUser(u: SmtpUserEntity, password: string, config: SmtpConfig): CreatedSmtpUser {
  return { ...toSmtpUser(u, config), password };
}
