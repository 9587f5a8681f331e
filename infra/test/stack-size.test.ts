import { describe, expect, it } from 'vitest';
import { ENDPOINT_GROUPS, loadEndpoints } from '../lib/endpoints';
import { STAGES } from '../lib/shop-stack';
import { resources, shopStackTemplates, stageStacks } from './fixtures';

/**
 * CloudFormation refuses a stack of more than 500 resources. Each stack is held well
 * under it, so that a failing run says which stack to split long before a synth fails.
 */
const MOST_RESOURCES = 400;

describe.each(STAGES)('the %s shop stack and its nested stacks', (stage) => {
  const templates = shopStackTemplates(stage);

  it(`each hold at most ${MOST_RESOURCES} resources (CloudFormation's limit is 500)`, () => {
    const counts = [...templates].map(([name, t]) => [name, Object.keys(t.toJSON()['Resources'] ?? {}).length] as const);
    // The headroom, for whoever adds the next endpoints (docs/infrastructure.md "Stack layout").
    console.log(`${stage} resources per stack: ${counts.map(([name, n]) => `${name} ${n}`).join(', ')}`);
    for (const [name, n] of counts) expect(n, `${stage} ${name}`).toBeLessThanOrEqual(MOST_RESOURCES);
  });

  it("has one nested stack per route group, holding exactly that group's functions; the parent holds no endpoint", () => {
    const endpoints = loadEndpoints();
    expect([...templates.keys()]).toEqual(['parent', ...ENDPOINT_GROUPS.filter((g) => endpoints.some((e) => e.group === g))]);
    const described = (name: string) =>
      Object.values(resources(templates.get(name)!, 'AWS::Lambda::Function'))
        .map((fn) => /^\/api endpoint (\w+):/.exec(String(fn.Properties['Description']))?.[1])
        .filter((n): n is string => n !== undefined)
        .sort();
    expect(described('parent')).toEqual([]);
    for (const group of templates.keys()) {
      if (group === 'parent') continue;
      expect(described(group), group).toEqual(
        endpoints
          .filter((e) => e.group === group)
          .map((e) => e.name)
          .sort(),
      );
      // The group's routes are its own resources, on the parent's API (a parameter).
      const routes = Object.values(resources(templates.get(group)!, 'AWS::ApiGatewayV2::Route'));
      expect(routes.length, group).toBe(endpoints.filter((e) => e.group === group).flatMap((e) => e.routes).length);
      for (const r of routes) expect(r.Properties['ApiId'], group).toEqual({ Ref: expect.stringMatching(/HttpApi/) });
    }
    // The API, its stage, the table and the secrets (CSRF, origin, SMTP, Stripe) stay in the parent.
    const parent = templates.get('parent')!;
    parent.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    parent.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    parent.resourceCountIs('AWS::ApiGatewayV2::Route', 0);
    parent.resourceCountIs('AWS::SecretsManager::Secret', 4);
    expect(Object.keys(resources(parent, 'AWS::CloudFormation::Stack'))).toHaveLength(stageStacks(stage).shop.api.groupStacks.size);
  });
});
