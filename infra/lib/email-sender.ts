import {
  Duration,
  Stack,
  aws_dynamodb as dynamodb,
  aws_events as events,
  aws_events_targets as targets,
  aws_lambda as lambda,
  aws_secretsmanager as secretsmanager,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { loadJob, type FunctionRights } from './endpoints';
import { goFunction, grantTable } from './shop-api';

/** The port of Amazon SES's SMTP interface with STARTTLS. */
export const SES_SMTP_PORT = 587;

/** Inputs of {@link EmailSender}. */
export interface EmailSenderProps {
  readonly table: dynamodb.ITableV2;
  /** Folder holding sendEmails/bootstrap (scripts/build-lambdas.mjs). */
  readonly codeDir: string;
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The secret holding the SES SMTP credentials as JSON {"username": …, "password": …}
   * (docs/infrastructure.md "Email"); the function reads it at cold start.
   */
  readonly smtpSecret: secretsmanager.ISecret;
  /** The SMTP host; defaults to SES's SMTP interface in the stack's region. */
  readonly smtpHost?: string;
  /** Its table grants; defaults to endpoints.json's job sendEmails (which a Go test keeps true). */
  readonly rights?: FunctionRights;
}

/**
 * The sendEmails function on a one-minute schedule: it sends the emails the order events
 * wrote to the outbox through Amazon SES's SMTP interface (STARTTLS on 587), marking each
 * sent, and leaves them queued with back-off while SES does not take them
 * (docs/back-office.md "Emails").
 */
export class EmailSender extends Construct {
  public readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: EmailSenderProps) {
    super(scope, id);
    this.fn = goFunction(this, 'sendEmails', {
      codeDir: props.codeDir,
      memoryMB: 256,
      description: 'Sends the emails waiting in the outbox through Amazon SES (every minute)',
      environment: {
        ...props.environment,
        TABLE_NAME: props.table.tableName,
        SMTP_HOST: props.smtpHost ?? `email-smtp.${Stack.of(this).region}.amazonaws.com`,
        SMTP_PORT: String(SES_SMTP_PORT),
        SMTP_TLS: 'starttls',
        SMTP_SECRET_ARN: props.smtpSecret.secretArn,
      },
      timeout: Duration.seconds(60),
    });
    // List, claim and release the outbox's records, move a sent one to SENT: nothing
    // else of the table; and read the SMTP credentials, no other secret.
    grantTable(this.fn, props.table, (props.rights ?? loadJob('sendEmails')).access);
    props.smtpSecret.grantRead(this.fn);
    new events.Rule(this, 'EveryMinute', {
      description: 'Runs sendEmails every minute',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
