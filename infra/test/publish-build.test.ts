import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadEndpoints } from '../lib/endpoints';
import { CATALOGUE_INDEX, PUBLISH_PROJECT_VAR } from '../lib/publish-build';
import { STAGES } from '../lib/shop-stack';
import { actionsOf, resources, stackTemplate, stageConfigs, type Statement } from './fixtures';

/** Every statement of the policies attached to the role with this logical id. */
function roleStatements(t: ReturnType<typeof stackTemplate>, roleId: string): Statement[] {
  return Object.values(resources(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties['Roles'] as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })))
    .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
}

const refTo = (prefix: string) => ({ Ref: Match.stringLikeRegexp(`^${prefix}`) });

describe.each(STAGES)('the %s publish build (the back office\'s "Publish catalogue" in the cloud)', (stage) => {
  const t = stackTemplate(stage);
  const projects = resources(t, 'AWS::CodeBuild::Project');
  const [projectId, project] = Object.entries(projects)[0]!;
  const roleId = (project.Properties['ServiceRole'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

  it('is one CodeBuild project that runs the release for the stage, one build at a time, from the deployed source', () => {
    expect(Object.keys(projects)).toHaveLength(1);
    t.hasResourceProperties('AWS::CodeBuild::Project', {
      ConcurrentBuildLimit: 1,
      TimeoutInMinutes: 60,
      Source: { Type: 'S3', Location: Match.anyValue(), BuildSpec: Match.stringLikeRegexp('bash scripts/release --target aws') },
      Artifacts: { Type: 'NO_ARTIFACTS' },
      Environment: Match.objectLike({ Image: 'aws/codebuild/standard:7.0', PrivilegedMode: false }),
      LogsConfig: { CloudWatchLogs: { Status: 'ENABLED', GroupName: refTo('PublishLogs') } },
    });
    const spec = JSON.parse(project.Properties['Source'].BuildSpec as string);
    expect(spec.phases.install['runtime-versions']).toEqual({ nodejs: '22', golang: '1.23' });
    expect(spec.phases.pre_build.commands).toContain('npm ci --no-audit --no-fund');
  });

  it("has the stack's outputs as its environment, as scripts/release --target aws reads them", () => {
    const vars = Object.fromEntries(
      (project.Properties['Environment'].EnvironmentVariables as { Name: string; Value: unknown; Type: string }[]).map((v) => {
        expect(v.Type).toBe('PLAINTEXT');
        return [v.Name, v.Value];
      }),
    );
    const projectId_ = stageConfigs[stage].firebaseProjectId;
    expect(vars).toEqual({
      TABLE_NAME: { Ref: 'ShopTable' },
      AWS_REGION: stageConfigs[stage].region,
      RELEASE_BUCKET: { Ref: 'SiteBucket' },
      RELEASE_DISTRIBUTION_ID: { Ref: expect.stringMatching(/^SiteDistribution/) },
      RELEASE_KVS_ARN: { 'Fn::GetAtt': [expect.stringMatching(/^SiteRouteRules/), 'Arn'] },
      SITE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^SiteDistribution/), 'DomainName'] }]] },
      SITE_VERSION: stage,
      NEXT_PUBLIC_FIREBASE_PROJECT_ID: projectId_,
      NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: `${projectId_}.firebaseapp.com`,
      NEXT_TELEMETRY_DISABLED: '1',
    });
    // No local-only setting reaches the release: the store is the stage's table, sign-in the stage's project.
    for (const name of ['DYNAMODB_ENDPOINT', 'AUTH_EMULATOR_URL', 'FIREBASE_AUTH_EMULATOR_HOST']) expect(vars).not.toHaveProperty(name);
    t.hasOutput('PublishProjectName', { Value: { Ref: projectId } });
  });

  it('has a role of its own that may read only the catalogue index, write the site, the route rules and invalidations, and its logs', () => {
    t.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'codebuild.amazonaws.com' } })] },
    });
    const statements = roleStatements(t, roleId);
    const actions = statements.flatMap(actionsOf).sort();
    expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:Query']);
    expect(statements.find((s) => actionsOf(s).includes('dynamodb:Query'))!.Resource).toEqual({
      'Fn::Join': ['', [{ 'Fn::GetAtt': ['ShopTable', 'Arn'] }, `/index/${CATALOGUE_INDEX}`]],
    });
    const siteWrite = statements.find((s) => actionsOf(s).includes('s3:PutObject'))!;
    expect(actionsOf(siteWrite).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(siteWrite.Resource)).toMatch(/SiteBucket.*\/site\/\*.*SiteBucket.*\/releases\/\*/);
    expect(statements.find((s) => actionsOf(s).includes('cloudfront-keyvaluestore:UpdateKeys'))!.Resource).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^SiteRouteRules/), 'Arn'],
    });
    expect(JSON.stringify(statements.find((s) => actionsOf(s).includes('cloudfront:CreateInvalidation'))!.Resource)).toMatch(
      /distribution\/.*SiteDistribution/,
    );
    expect(actions).toEqual(expect.arrayContaining(['logs:CreateLogStream', 'logs:PutLogEvents']));
    // Nothing else: no wildcard action, no write to the table, no other service.
    for (const a of actions)
      expect(a).toMatch(
        /^(dynamodb:Query|s3:(GetObject\*?|PutObject|DeleteObject|ListBucket|GetBucket\*|List\*)|cloudfront-keyvaluestore:\w+|cloudfront:(Create|Get)Invalidation|logs:\w+|codebuild:\w+)$/,
      );
    expect(actions.filter((a) => a.startsWith('codebuild:') && !/ReportGroup|Report|TestCases|CodeCoverages/.test(a))).toEqual([]);
  });

  it('is started and read only by the functions with publishBuild, on this project and its logs alone', () => {
    const publishers = loadEndpoints()
      .filter((e) => e.publishBuild)
      .map((e) => e.name);
    expect(publishers).toEqual(['adminPublish']);
    const functions = resources(t, 'AWS::Lambda::Function');
    for (const [id, fn] of Object.entries(functions)) {
      const name = fn.Properties['Environment']?.Variables?.['API_ENDPOINT'] as string | undefined;
      const role = (fn.Properties['Role'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const statements = roleStatements(t, role);
      const cb = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('codebuild:') || a === 'logs:GetLogEvents'));
      if (name === undefined || !publishers.includes(name)) {
        expect(cb, id).toEqual([]);
        expect(fn.Properties['Environment']?.Variables ?? {}, id).not.toHaveProperty(PUBLISH_PROJECT_VAR);
        continue;
      }
      expect(fn.Properties['Environment'].Variables[PUBLISH_PROJECT_VAR]).toEqual({ Ref: projectId });
      expect(cb.map((s) => ({ actions: actionsOf(s).sort(), resource: s.Resource }))).toEqual([
        { actions: ['codebuild:BatchGetBuilds', 'codebuild:ListBuildsForProject', 'codebuild:StartBuild'], resource: { 'Fn::GetAtt': [projectId, 'Arn'] } },
        { actions: ['logs:GetLogEvents'], resource: { 'Fn::GetAtt': [expect.stringMatching(/^PublishLogs/), 'Arn'] } },
      ]);
    }
  });
});
