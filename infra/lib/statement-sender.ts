import { Duration, aws_dynamodb as dynamodb, aws_events as events, aws_events_targets as targets, aws_lambda as lambda } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { loadJob, type FunctionRights } from './endpoints';
import { goFunction, grantTable } from './shop-api';

/** Inputs of {@link StatementSender}. */
export interface StatementSenderProps {
  readonly table: dynamodb.ITableV2;
  /** Folder holding statements/bootstrap (scripts/build-lambdas.mjs). */
  readonly codeDir: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Its table grants; defaults to endpoints.json's job statements (which a Go test keeps true). */
  readonly rights?: FunctionRights;
}

/**
 * The statements function, run at 06:00 UTC every day (the same day in London, in winter
 * and in summer): on the 1st of each month it queues each trade account's statement email
 * in the outbox, once per account and month (docs/statements.md), and every day the
 * pre-order reminders, once per buyer and order-by date (docs/forward-orders.md
 * "Reminders"), for sendEmails to send. A run
 * that fails is tried again by Lambda (twice, a minute or two apart): a run queues
 * nothing twice, so a retry only finishes what the failed run left, and three failures
 * raise the jobs' alarm.
 */
export class StatementSender extends Construct {
  public readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: StatementSenderProps) {
    super(scope, id);
    this.fn = goFunction(this, 'statements', {
      codeDir: props.codeDir,
      memoryMB: 512,
      description: 'Queues the monthly statement emails (the 1st of each month) and the daily pre-order reminders',
      environment: { ...props.environment, TABLE_NAME: props.table.tableName },
      // Every account's ledger, a few at once: minutes for thousands of accounts.
      timeout: Duration.minutes(10),
    });
    this.fn.configureAsyncInvoke({ retryAttempts: 2 });
    // Read the accounts list, each account's documents and basket and the forward
    // products, queue an email: nothing else.
    grantTable(this.fn, props.table, (props.rights ?? loadJob('statements')).access);
    // The rule keeps its first id (it ran on the 1st only) so that the deploy changes its
    // schedule rather than replacing it.
    new events.Rule(this, 'FirstOfTheMonth', {
      description: 'Runs statements at 06:00 UTC every day',
      schedule: events.Schedule.cron({ minute: '0', hour: '6' }),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
