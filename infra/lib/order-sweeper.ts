import { Duration, aws_dynamodb as dynamodb, aws_events as events, aws_events_targets as targets, aws_lambda as lambda } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { goFunction } from './shop-api';

/** The table actions the sweep needs: read pending records, give back what they hold. */
export const SWEEPER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** Inputs of {@link OrderSweeper}. */
export interface OrderSweeperProps {
  readonly table: dynamodb.ITableV2;
  /** Folder holding sweepOrders/bootstrap (scripts/build-lambdas.mjs). */
  readonly codeDir: string;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The sweepOrders function on a one-minute schedule: it undoes large orders whose request
 * died between its steps (docs/orders.md "Large orders"), so a buyer's basket is never
 * left locked and no reserved stock is held for longer than a couple of minutes.
 */
export class OrderSweeper extends Construct {
  public readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: OrderSweeperProps) {
    super(scope, id);
    this.fn = goFunction(this, 'sweepOrders', {
      codeDir: props.codeDir,
      memoryMB: 256,
      description: 'Undoes large orders left pending by a request that died (every minute)',
      environment: { ...props.environment, TABLE_NAME: props.table.tableName },
      timeout: Duration.seconds(60),
    });
    props.table.grant(this.fn, ...SWEEPER_TABLE_ACTIONS);
    new events.Rule(this, 'EveryMinute', {
      description: 'Runs sweepOrders every minute',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
