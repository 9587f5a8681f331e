import { CfnOutput, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { loadTableSchema, type TableSchema } from './schema';
import { ShopTable } from './table';

/** The deployments the shop has; each is its own stack with its own table. */
export const STAGES = ['staging', 'production'] as const;

/** One of {@link STAGES}. */
export type Stage = (typeof STAGES)[number];

/** Narrows an untrusted value (CLI context) to a {@link Stage}, or throws naming the allowed ones. */
export function parseStage(value: unknown): Stage {
  const stage = STAGES.find((s) => s === value);
  if (stage === undefined) throw new Error(`stage must be one of ${STAGES.join(', ')}; got ${JSON.stringify(value)}`);
  return stage;
}

/** Inputs of {@link ShopStack}. */
export interface ShopStackProps extends StackProps {
  /** Which deployment this is; tagged on every resource. */
  readonly stage: Stage;
  /** The table shape; defaults to functions/schema/table.json. Tests pass their own. */
  readonly schema?: TableSchema;
}

/** The shop's backend resources for one stage: the DynamoDB table and its name as an output. */
export class ShopStack extends Stack {
  /** The table construct, for wiring functions to it later. */
  public readonly shopTable: ShopTable;

  constructor(scope: Construct, id: string, props: ShopStackProps) {
    super(scope, id, props);
    const stage = parseStage(props.stage);
    Tags.of(this).add('tradeshop:stage', stage);

    this.shopTable = new ShopTable(this, 'ShopTable', { schema: props.schema ?? loadTableSchema() });

    new CfnOutput(this, 'TableName', {
      description: `Physical name of the ${stage} shop table; give it to the functions as their table name.`,
      value: this.shopTable.table.tableName,
    });
  }
}
