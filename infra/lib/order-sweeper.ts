import {
  Duration,
  aws_dynamodb as dynamodb,
  aws_events as events,
  aws_events_targets as targets,
  aws_lambda as lambda,
  aws_secretsmanager as secretsmanager,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { loadJob, type FunctionRights } from './endpoints';
import { goFunction, grantStripeSecret, grantTable } from './shop-api';

/** Inputs of {@link OrderSweeper}. */
export interface OrderSweeperProps {
  readonly table: dynamodb.ITableV2;
  /** Folder holding sweepOrders/bootstrap (scripts/build-lambdas.mjs). */
  readonly codeDir: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Its table grants; defaults to endpoints.json's job sweepOrders (which a Go test keeps true). */
  readonly rights?: FunctionRights;
  /** The stage's Stripe secret: read (STRIPE_SECRET_ARN) when the job's rights have stripeSecret, and required then. */
  readonly stripeSecret?: secretsmanager.ISecret;
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
    // Read the pending records, give back the stock and coupon uses they hold, unlock the
    // basket and free the idempotency key; where endpoints.json says so (stripeSecret), send
    // Stripe the card refunds a crash left unsent: nothing else.
    const rights = props.rights ?? loadJob('sweepOrders');
    grantTable(this.fn, props.table, rights.access);
    if (rights.stripeSecret) {
      if (props.stripeSecret === undefined) throw new Error(`${this.node.path}: sweepOrders needs the Stripe secret (stripeSecret) and none was given`);
      grantStripeSecret(this.fn, props.stripeSecret);
    }
    new events.Rule(this, 'EveryMinute', {
      description: 'Runs sweepOrders every minute',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
