import { Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** The service's emails (one SMTP transport per instance). APP_CONFIG comes from the global CoreModule. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
