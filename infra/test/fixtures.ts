import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { loadEndpoints, loadJobs } from '../lib/endpoints';
import { API_BINARY } from '../lib/shop-api';
import { loadShopOperations } from '../lib/shop-config';
import { addStage, type ShopStack, type Stage, type StageConfig, type StageStacks } from '../lib/shop-stack';

/** The stage settings the real app uses (cdk.json context), so tests check them too. */
export const stageConfigs = (
  JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'cdk.json'), 'utf8')) as { context: { stages: Record<Stage, StageConfig> } }
).context.stages;

/** Who the alarms email, as bin/app.ts reads it: shop.json operations.alarm_email. */
export const alarmEmail = loadShopOperations().alarmEmail;

/** Every function's name: the endpoints, notFound, then the jobs. */
export const functionNames = [...loadEndpoints().map((e) => e.name), 'notFound', ...loadJobs().map((j) => j.name)];

/** Every binary's name, as scripts/build-lambdas.mjs builds them: every endpoint runs `api`. */
export const binaryNames = [API_BINARY, 'notFound', ...loadJobs().map((j) => j.name)];

/**
 * A folder shaped like scripts/build-lambdas.mjs output, with stand-in bootstraps:
 * these tests are about the template, not the binaries (the test command synthesizes
 * with the real ones).
 */
export function fakeLambdaDir(names: readonly string[] = binaryNames): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-lambda-'));
  for (const name of names) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'bootstrap'), `#!/bin/sh\n# stand-in for ${name}\n`);
  }
  return dir;
}

const lambdaDir = fakeLambdaDir();

/** A stand-in of the publish build's source zip (scripts/deploy makes the real one). */
export function fakePublishSource(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradeshop-source-')), 'publish-source.zip');
  writeFileSync(file, 'stand-in for the repository zip\n');
  return file;
}
const publishSource = fakePublishSource();
/** The build the test stacks are deployed as (BUILD_ID on every function). */
export const testBuild = 'abc1234-dirty';
const stacks = new Map<Stage, StageStacks>();
const templates = new Map<string, Template>();

/** The stage's stacks, wired as bin/app.ts wires them (addStage), built once per test file. */
export function stageStacks(stage: Stage): StageStacks {
  let s = stacks.get(stage);
  if (s === undefined) {
    s = addStage(new App(), {
      stage,
      config: stageConfigs[stage],
      lambdaDir,
      publishSource,
      alarmEmail,
      build: testBuild,
      idPrefix: 'Test',
      account: '123456789012',
    });
    stacks.set(stage, s);
  }
  return s;
}

function template(stage: Stage, which: keyof StageStacks): Template {
  const key = `${stage}/${which}`;
  let t = templates.get(key);
  if (t === undefined) {
    t = Template.fromStack(stageStacks(stage)[which]);
    templates.set(key, t);
  }
  return t;
}

/**
 * The stage's shop stack as one Template: the parent's resources and, inlined, those of
 * its nested stacks (the API's route groups), with each nested stack's parameters replaced
 * by what the parent passes and each of the parent's reads of a nested output by that
 * output's value. So an assertion reads as if the stack were one (a function's table ARN
 * is `ShopTable`'s, an alarm's function is a `Ref` to it) whichever stack holds what;
 * {@link shopStackTemplates} has them one by one.
 */
export function stackTemplate(stage: Stage): Template {
  const key = `${stage}/shop-inlined`;
  let t = templates.get(key);
  if (t === undefined) {
    t = inlinedTemplate(stageStacks(stage).shop);
    templates.set(key, t);
  }
  return t;
}

/** The shop stack's templates one by one, by name: `parent`, then each route group's nested stack. */
export function shopStackTemplates(stage: Stage): Map<string, Template> {
  const out = new Map<string, Template>([['parent', template(stage, 'shop')]]);
  for (const [group, nested] of stageStacks(stage).shop.api.groupStacks) {
    const key = `${stage}/api-${group}`;
    let t = templates.get(key);
    if (t === undefined) {
      t = Template.fromStack(nested);
      templates.set(key, t);
    }
    out.set(group, t);
  }
  return out;
}

type Json = { [k: string]: any };

/** Replaces, deep in value, every object that `swap` returns a replacement for. */
function substitute(value: unknown, swap: (o: Json) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, swap));
  if (value === null || typeof value !== 'object') return value;
  const replaced = swap(value as Json);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, swap)]));
}

/** A shop stack as one Template, its nested stacks inlined as {@link stackTemplate} says. */
export function inlinedTemplate(shop: ShopStack): Template {
  const parent = Template.fromStack(shop).toJSON() as Json;
  const resources: Json = {};
  const outputsOf = new Map<string, Json>();
  for (const nested of shop.api.groupStacks.values()) {
    const id = shop.getLogicalId(nested.nestedStackResource!);
    const passed = (parent['Resources'][id]?.['Properties']?.['Parameters'] ?? {}) as Json;
    const child = substitute(Template.fromStack(nested).toJSON(), (o) =>
      Object.keys(o).length === 1 && typeof o['Ref'] === 'string' && o['Ref'] in passed ? passed[o['Ref']] : undefined,
    ) as Json;
    for (const [rid, r] of Object.entries(child['Resources'] as Json)) {
      if (rid in resources || rid in parent['Resources']) throw new Error(`inlining ${nested.node.path}: ${rid} is in two stacks`);
      resources[rid] = r;
    }
    outputsOf.set(id, child['Outputs'] ?? {});
  }
  const rest = substitute(parent, (o) => {
    const at = o['Fn::GetAtt'];
    if (Object.keys(o).length !== 1 || !Array.isArray(at) || !outputsOf.has(at[0]) || !String(at[1]).startsWith('Outputs.')) return undefined;
    return outputsOf.get(at[0])![String(at[1]).slice('Outputs.'.length)]['Value'];
  }) as Json;
  return Template.fromJSON({ ...rest, Resources: { ...rest['Resources'], ...resources } });
}

/** The stage's us-east-1 edge stack (the WAF web ACL) as a Template. */
export function edgeTemplate(stage: Stage): Template {
  return template(stage, 'edge');
}

/** The stage's us-east-1 CloudFront alarm stack as a Template. */
export function edgeAlarmsTemplate(stage: Stage): Template {
  return template(stage, 'edgeAlarms');
}

/** Resources of one type, by logical id. */
export function resources(t: Template, type: string): Record<string, { Properties: Record<string, any>; [k: string]: any }> {
  return t.findResources(type) as Record<string, { Properties: Record<string, any> }>;
}

/** One grant of endpoints.json as written there. */
export interface RawGrant {
  actions: string[];
  keys?: string[];
  index?: string;
}

/** A function of endpoints.json as written there. */
export interface RawFunction {
  name: string;
  csrfSecret: boolean;
  access: RawGrant[];
  timeoutSeconds?: number;
  mediaBucket?: boolean;
  stripeSecret?: boolean;
}

/** functions/internal/api/endpoints.json, read directly (not through lib/endpoints.ts). */
export const rawFile = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'functions', 'internal', 'api', 'endpoints.json'), 'utf8')) as {
  endpoints: RawFunction[];
  jobs: RawFunction[];
};

/** An IAM statement of a template. */
export type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

/** A statement's actions as a list. */
export const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);

const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const TABLE_ARN = { 'Fn::GetAtt': ['ShopTable', 'Arn'] };

/** A template's DynamoDB statements in a comparable form: sorted actions, resource, LeadingKeys. */
export function tableStatements(statements: Statement[]): unknown[] {
  return statements
    .filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')))
    .map((s) => {
      const cond = s.Condition as Record<string, Record<string, string | string[]>> | undefined;
      expect(Object.keys(cond ?? {}).filter((k) => k !== 'ForAllValues:StringLike')).toEqual([]);
      const leading = cond?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      return {
        effect: s.Effect,
        actions: actionsOf(s).sort(),
        resource: list(s.Resource as unknown),
        leadingKeys: leading === undefined ? null : list(leading).sort(),
      };
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** What tableStatements must find for grants read from endpoints.json. */
export function expectedStatements(grants: RawGrant[]): unknown[] {
  return grants
    .map((g) => ({
      effect: 'Allow',
      actions: g.actions.map((a) => `dynamodb:${a}`).sort(),
      resource: [g.index === undefined ? TABLE_ARN : { 'Fn::Join': ['', [TABLE_ARN, `/index/${g.index}`]] }],
      leadingKeys: g.index === undefined ? [...g.keys!].sort() : null,
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The secretsmanager actions of a function allowed to read one secret (secret.grantRead). */
export const SECRET_READ_ACTIONS = ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'];

/** The dynamic reference to a stack secret whose logical id starts with prefix. */
export function secretRef(prefix: string): unknown {
  return { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: expect.stringMatching(new RegExp(`^${prefix}[0-9A-F]{8}$`)) }, ':SecretString:::}}']] };
}
