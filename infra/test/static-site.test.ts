import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadSecurityHeaders } from '../lib/security-headers';
import { STAGES } from '../lib/shop-stack';
import {
  API_CACHE_HEADERS,
  API_ORIGIN_HEADERS,
  CACHE_SECONDS,
  MEDIA_BUCKET_LOGICAL_ID,
  SITE_BUCKET_LOGICAL_ID,
  VIEWER_REQUEST_FUNCTION_PATH,
  VIEWER_RESPONSE_FUNCTION_PATH,
} from '../lib/static-site';
import { resources, stackTemplate, stageConfigs } from './fixtures';

// CloudFront's managed policies, by their fixed ids.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

type Behavior = Record<string, any>;

describe.each(STAGES)('StaticSite in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const [distribution] = Object.values(resources(t, 'AWS::CloudFront::Distribution'));
  const config = distribution!.Properties['DistributionConfig'];
  const behaviors = new Map<string, Behavior>(config.CacheBehaviors.map((b: Behavior) => [b['PathPattern'], b]));
  const cachePolicies = resources(t, 'AWS::CloudFront::CachePolicy');
  const origins = new Map<string, Behavior>(config.Origins.map((o: Behavior) => [o['Id'], o]));
  const [group] = config.OriginGroups.Items as Behavior[];
  const ttl = (b: Behavior) => {
    const ref = b['CachePolicyId'];
    if (typeof ref === 'string') return ref;
    const p = cachePolicies[ref.Ref]!.Properties['CachePolicyConfig'];
    return { min: p.MinTTL, def: p.DefaultTTL, max: p.MaxTTL };
  };

  it('keeps both buckets private: public access blocked, TLS only, encrypted, versioned, retained', () => {
    const buckets = resources(t, 'AWS::S3::Bucket');
    expect(Object.keys(buckets).sort()).toEqual([MEDIA_BUCKET_LOGICAL_ID, SITE_BUCKET_LOGICAL_ID].sort());
    for (const b of Object.values(buckets)) {
      expect(b.Properties['PublicAccessBlockConfiguration']).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(b.Properties['VersioningConfiguration']).toEqual({ Status: 'Enabled' });
      expect(b.Properties['BucketEncryption']).toBeDefined();
      expect(b['DeletionPolicy']).toBe('Retain');
      expect(b.Properties['LifecycleConfiguration'].Rules[0].NoncurrentVersionExpiration.NoncurrentDays).toBe(stageConfigs[stage].rollbackDays);
    }
    for (const policy of Object.values(resources(t, 'AWS::S3::BucketPolicy'))) {
      const statements = policy.Properties['PolicyDocument'].Statement as Behavior[];
      expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
      // Only CloudFront, for this distribution, may read; nobody else is allowed anything.
      for (const s of statements.filter((x) => x['Effect'] === 'Allow')) {
        expect(s['Principal']).toEqual({ Service: 'cloudfront.amazonaws.com' });
        expect(JSON.stringify(s['Condition'])).toContain('AWS:SourceArn');
        expect(s['Action']).toBe('s3:GetObject');
      }
    }
  });

  it('reads the buckets through origin access control, the site from its site/ prefix', () => {
    t.resourcePropertiesCountIs(
      'AWS::CloudFront::OriginAccessControl',
      {
        OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' }),
      },
      2,
    );
    const s3Origins = [...origins.values()].filter((o) => o['S3OriginConfig']);
    expect(s3Origins).toHaveLength(2);
    for (const o of s3Origins) expect(o['OriginAccessControlId']).toBeDefined();
    expect(s3Origins.map((o) => o['OriginPath'] ?? '')).toContain('/site');
  });

  it('sends /api/* to the HTTP API, every method, nothing cached, the headers it reads and the viewer address forwarded', () => {
    const api = behaviors.get('/api/*')!;
    expect(api['AllowedMethods']).toHaveLength(7);
    expect(api['FunctionAssociations']).toBeUndefined();
    const origin = origins.get(api['TargetOriginId'])!;
    expect(origin['CustomOriginConfig']).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(JSON.stringify(origin['DomainName'])).toContain('ApiHttpApi');

    // The cache policy forwards Authorization (only a cache key can) and caches nothing the
    // API marks no-store; its key holds every cookie and query string besides.
    const cache = cachePolicies[api['CachePolicyId'].Ref]!.Properties['CachePolicyConfig'];
    expect(cache).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 1 });
    expect(cache.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: [...API_CACHE_HEADERS] },
      CookiesConfig: { CookieBehavior: 'all' },
      QueryStringsConfig: { QueryStringBehavior: 'all' },
    });

    // The origin request policy: the API's headers and CloudFront-Viewer-Address (POST
    // /api/errors rate-limits by it), never Host (API Gateway routes by its own).
    const request = resources(t, 'AWS::CloudFront::OriginRequestPolicy')[api['OriginRequestPolicyId'].Ref]!.Properties['OriginRequestPolicyConfig'];
    expect(request).toMatchObject({
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: [...API_ORIGIN_HEADERS] },
      CookiesConfig: { CookieBehavior: 'all' },
      QueryStringsConfig: { QueryStringBehavior: 'all' },
    });
    expect(request.HeadersConfig.Headers).toContain('CloudFront-Viewer-Address');
    expect(request.HeadersConfig.Headers.map((h: string) => h.toLowerCase())).not.toContain('host');
    expect(request.HeadersConfig.Headers.length).toBeLessThanOrEqual(10);
  });

  it('caches hashed assets a year, pages, payloads and builds/meta a minute, builds/latest.json not at all', () => {
    const year = CACHE_SECONDS.hashed;
    expect(ttl(behaviors.get('/_next/static/*')!)).toEqual({ min: year, def: year, max: year });
    expect(ttl(config.DefaultCacheBehavior)).toEqual({ min: 0, def: 60, max: 60 });
    expect(ttl(behaviors.get('/builds/meta/*')!)).toEqual({ min: 0, def: 60, max: 60 });
    expect(ttl(behaviors.get('/builds/latest.json')!)).toBe(CACHING_DISABLED);
    expect(ttl(behaviors.get('/media/*')!)).toEqual({ min: 0, def: CACHE_SECONDS.media, max: CACHE_SECONDS.media });
  });

  // The template's CloudFront functions by logical id, and the one whose code is a file's.
  const functions = resources(t, 'AWS::CloudFront::Function');
  const functionOf = (file: string) => {
    const code = readFileSync(file, 'utf8');
    const found = Object.entries(functions).filter(([, fn]) => fn.Properties['FunctionCode'] === code);
    expect(found, `one CloudFront function runs ${file}`).toHaveLength(1);
    return found[0]!;
  };
  const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'FunctionARN'] });

  it('runs the viewer-request function with the route-rules store on every site behaviour', () => {
    t.resourceCountIs('AWS::CloudFront::Function', 2);
    const [id, fn] = functionOf(VIEWER_REQUEST_FUNCTION_PATH);
    expect(fn.Properties['FunctionConfig'].Runtime).toBe('cloudfront-js-2.0');
    expect(fn.Properties['FunctionConfig'].KeyValueStoreAssociations).toHaveLength(1);
    t.resourceCountIs('AWS::CloudFront::KeyValueStore', 1);
    for (const b of [config.DefaultCacheBehavior, ...['/_next/static/*', '/builds/latest.json', '/builds/meta/*'].map((p) => behaviors.get(p)!)]) {
      expect(b['FunctionAssociations']).toContainEqual({ EventType: 'viewer-request', FunctionARN: arnOf(id) });
      expect(b['TargetOriginId']).toBe(group!['Id']);
      expect(b['ViewerProtocolPolicy']).toBe('redirect-to-https');
    }
  });

  it('marks filtered views noindex with the viewer-response function on the pages behaviour only', () => {
    const [id, fn] = functionOf(VIEWER_RESPONSE_FUNCTION_PATH);
    expect(fn.Properties['FunctionConfig'].Runtime).toBe('cloudfront-js-2.0');
    expect(fn.Properties['FunctionConfig'].KeyValueStoreAssociations).toBeUndefined();
    expect(config.DefaultCacheBehavior['FunctionAssociations']).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
      { EventType: 'viewer-response', FunctionARN: arnOf(id) },
    ]);
    for (const p of ['/_next/static/*', '/builds/latest.json', '/builds/meta/*']) {
      expect(behaviors.get(p)!['FunctionAssociations']).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    }
    expect(behaviors.get('/api/*')!['FunctionAssociations']).toBeUndefined();
    expect(behaviors.get('/media/*')!['FunctionAssociations']).toBeUndefined();
  });

  it('answers missing pages from the notFound function, not with custom error pages that would swallow API errors', () => {
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(group!['FailoverCriteria'].StatusCodes.Items.sort()).toEqual([403, 404]);
    const [primary, fallback] = group!['Members'].Items.map((m: Behavior) => origins.get(m['OriginId'])!);
    expect(primary['OriginPath']).toBe('/site');
    expect(JSON.stringify(fallback['DomainName'])).toContain('notFound');
    t.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM' });
    // The notFound function reads the 404 page and nothing else.
    const statements = Object.values(resources(t, 'AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties['Roles']).includes('notFound'))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Behavior[]);
    expect(statements.flatMap((s) => s['Action'])).toEqual(['s3:GetObject']);
    expect(JSON.stringify(statements.map((s) => s['Resource']))).toContain('/site/404.html');
    // The user agent reaches it (crawlers get a bare 404); it is not part of any cache key.
    t.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: Match.objectLike({ HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['User-Agent'] } }),
    });
  });

  it('adds HSTS, the CSP with frame-ancestors, nosniff and frame options to every behaviour', () => {
    const h = loadSecurityHeaders();
    const [policy] = Object.entries(resources(t, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const sec = policy![1].Properties['ResponseHeadersPolicyConfig'].SecurityHeadersConfig;
    expect(sec.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: h.strictTransportSecurity.maxAgeSeconds,
      IncludeSubdomains: true,
      Preload: true,
      Override: true,
    });
    expect(sec.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
    expect(sec.ContentSecurityPolicy.ContentSecurityPolicy).toContain('https://identitytoolkit.googleapis.com');
    expect(sec.ContentTypeOptions).toEqual({ Override: true });
    expect(sec.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    for (const b of [config.DefaultCacheBehavior, ...behaviors.values()]) expect(b['ResponseHeadersPolicyId']).toEqual({ Ref: policy![0] });
  });

  it('serves index.html for the root', () => {
    expect(config.DefaultRootObject).toBe('index.html');
  });
});
