import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { loadEndpoints } from '../lib/endpoints';
import { ShopStack, type Stage, type StageConfig } from '../lib/shop-stack';

/** The stage settings the real app uses (cdk.json context), so tests check them too. */
export const stageConfigs = (
  JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'cdk.json'), 'utf8')) as { context: { stages: Record<Stage, StageConfig> } }
).context.stages;

/** Every function's name, as scripts/build-lambdas.mjs builds them. */
export const functionNames = [...loadEndpoints().map((e) => e.name), 'notFound', 'sweepOrders'];

/**
 * A folder shaped like scripts/build-lambdas.mjs output, with stand-in bootstraps:
 * these tests are about the template, not the binaries (the test command synthesizes
 * with the real ones).
 */
export function fakeLambdaDir(names: readonly string[] = functionNames): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-lambda-'));
  for (const name of names) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'bootstrap'), `#!/bin/sh\n# stand-in for ${name}\n`);
  }
  return dir;
}

const lambdaDir = fakeLambdaDir();
const templates = new Map<Stage, Template>();

/** The stage's whole stack as a Template, built once per test file. */
export function stackTemplate(stage: Stage): Template {
  let t = templates.get(stage);
  if (t === undefined) {
    t = Template.fromStack(new ShopStack(new App(), `Test-${stage}`, { stage, config: stageConfigs[stage], lambdaDir }));
    templates.set(stage, t);
  }
  return t;
}

/** Resources of one type, by logical id. */
export function resources(t: Template, type: string): Record<string, { Properties: Record<string, any>; [k: string]: any }> {
  return t.findResources(type) as Record<string, { Properties: Record<string, any> }>;
}
