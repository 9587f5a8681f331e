import * as path from 'node:path';
import {
  CfnResource,
  Duration,
  RemovalPolicy,
  Validations,
  aws_cloudfront as cloudfront,
  aws_cloudfront_origins as origins,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_s3 as s3,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { SecurityHeaders } from './security-headers';
import { goFunction } from './shop-api';

/** The CloudFront function's source (viewer request), shared-vector tested in Node. */
export const VIEWER_REQUEST_FUNCTION_PATH = path.resolve(__dirname, '..', 'edge', 'viewer-request.js');

/** The CloudFront function's source (viewer response: noindex on filtered views), shared-vector tested in Node. */
export const VIEWER_RESPONSE_FUNCTION_PATH = path.resolve(__dirname, '..', 'edge', 'viewer-response.js');

/** The site's objects live under this key prefix; the manifests of releases under releases/. */
export const SITE_PREFIX = 'site';

/** How long the CDN keeps each kind of response. */
export const CACHE_SECONDS = {
  /** Hashed assets under /_next/static/: a year (the names change with the content). */
  hashed: 365 * 24 * 3600,
  /** HTML, _payload.json, builds/meta: a minute (s-maxage on the objects; releases invalidate). */
  pages: 60,
  /** Product images under /media/. */
  media: 24 * 3600,
} as const;

/**
 * The viewer headers CloudFront passes to the API by its origin request policy, and the one
 * it adds. The API reads only these and Authorization (functions/internal: csrf, the request
 * id, the crawler check of POST /api/errors), and CloudFront-Viewer-Address is the real
 * client's address, by which POST /api/errors rate-limits (CloudFront sets it; a viewer
 * cannot). Stripe-Signature is Stripe's signature of a webhook event, which POST
 * /api/payments/stripe checks (docs/payments.md): without it every event is refused. The managed policy forwarding every viewer header but Host cannot add it, and
 * Host must not reach API Gateway, so the list is explicit. At most 10 (CloudFront's quota
 * per policy). Authorization cannot be in an origin request policy: it is in the API's
 * cache policy ({@link API_CACHE_HEADERS}).
 */
export const API_ORIGIN_HEADERS = [
  'Content-Type',
  'Origin',
  'Sec-Fetch-Site',
  'User-Agent',
  'X-CSRF-Token',
  'X-Request-Id',
  'CloudFront-Viewer-Address',
  'Stripe-Signature',
] as const;

/** The headers in the API's cache key, which CloudFront therefore forwards: only Authorization (see {@link API_ORIGIN_HEADERS}). */
export const API_CACHE_HEADERS = ['Authorization'] as const;

/** Logical ids pinned so that refactoring never replaces (and empties) a bucket. */
export const SITE_BUCKET_LOGICAL_ID = 'SiteBucket';
export const MEDIA_BUCKET_LOGICAL_ID = 'MediaBucket';

/** Inputs of {@link StaticSite}. */
export interface StaticSiteProps {
  /** Host name of the HTTP API that serves /api/* (no scheme). */
  readonly apiDomainName: string;
  /** Headers CloudFront adds to every request to the API origin (the origin secret). */
  readonly apiOriginHeaders?: Readonly<Record<string, string>>;
  /** ARN of the CLOUDFRONT-scope WAF web ACL on the distribution. */
  readonly webAclArn?: string;
  /** Folder holding notFound/bootstrap (scripts/build-lambdas.mjs). */
  readonly codeDir: string;
  /** Response security headers, normally `loadSecurityHeaders()`. */
  readonly securityHeaders: SecurityHeaders;
  /** How long noncurrent object versions are kept, which bounds how far back a rollback can go. */
  readonly keepOldVersions: Duration;
}

/**
 * The prerendered site on the CDN: a private, versioned S3 bucket (the release publishes
 * into site/ and keeps old versions for rollback) behind CloudFront with origin access
 * control; a viewer-request function with the route rules in a KeyValueStore, and on the
 * pages a viewer-response function marking filtered views noindex; /api/* to
 * the HTTP API uncached; hashed assets a year, pages a minute, builds/latest.json never;
 * security headers on every response; a page S3 does not have is answered by the
 * notFound function (the 404 page, bare for crawlers), so the API's own 4xx answers pass
 * through untouched (distribution-wide custom error pages would replace them).
 */
export class StaticSite extends Construct {
  public readonly bucket: s3.Bucket;
  /** Product images, served under /media/ (their own origin: not part of any build). */
  public readonly mediaBucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  /** The route rules the release writes and the viewer-request function reads. */
  public readonly routeRules: cloudfront.KeyValueStore;
  public readonly viewerRequest: cloudfront.Function;
  /** Marks a page asked for as a listing's filtered view noindex (the default behaviour's). */
  public readonly viewerResponse: cloudfront.Function;
  /** Answers for pages the site does not have. */
  public readonly notFound: lambda.Function;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);

    this.bucket = privateBucket(this, 'Bucket', SITE_BUCKET_LOGICAL_ID, props.keepOldVersions);
    this.mediaBucket = privateBucket(this, 'MediaBucket', MEDIA_BUCKET_LOGICAL_ID, props.keepOldVersions);

    this.routeRules = new cloudfront.KeyValueStore(this, 'RouteRules', {
      comment: 'Route rules of published builds and the current build id (written by scripts/release)',
    });
    this.viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      comment: 'Dot segments, route rules, trailing slash, index.html rewrite',
      code: cloudfront.FunctionCode.fromFile({ filePath: VIEWER_REQUEST_FUNCTION_PATH }),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      keyValueStore: this.routeRules,
    });
    this.viewerResponse = new cloudfront.Function(this, 'ViewerResponse', {
      comment: 'X-Robots-Tag: noindex on a page asked for as a filtered view (sort, facets, price, stock)',
      code: cloudfront.FunctionCode.fromFile({ filePath: VIEWER_RESPONSE_FUNCTION_PATH }),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    this.notFound = goFunction(this, 'notFound', {
      codeDir: props.codeDir,
      memoryMB: 128,
      description: 'CloudFront fallback origin: the 404 page (bare for crawlers)',
      environment: { SITE_BUCKET: this.bucket.bucketName, NOT_FOUND_KEY: `${SITE_PREFIX}/404.html` },
      timeout: Duration.seconds(5),
    });
    this.notFound.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${SITE_PREFIX}/404.html`)] }));
    const notFoundUrl = this.notFound.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM });

    const siteOrigin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originPath: `/${SITE_PREFIX}` });
    const pages = new origins.OriginGroup({
      primaryOrigin: siteOrigin,
      // With OAC and no ListBucket right, S3 answers 403 for a missing key.
      fallbackOrigin: origins.FunctionUrlOrigin.withOriginAccessControl(notFoundUrl),
      fallbackStatusCodes: [403, 404],
    });
    const api = new origins.HttpOrigin(props.apiDomainName, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { ...props.apiOriginHeaders },
    });
    const media = origins.S3BucketOrigin.withOriginAccessControl(this.mediaBucket);

    const headers = securityHeadersPolicy(this, props.securityHeaders);
    const pageCache = cachePolicy(this, 'PageCache', 'HTML, _payload.json and builds/meta: a minute at the edge', 0, CACHE_SECONDS.pages, CACHE_SECONDS.pages);
    // The notFound origin tells crawlers from browsers by User-Agent; S3 ignores it.
    const forwardAgent = new cloudfront.OriginRequestPolicy(this, 'ForwardUserAgent', {
      comment: 'User-Agent to the notFound origin (bare 404 for crawlers)',
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList('User-Agent'),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.none(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });
    // CloudFront forwards Authorization only as part of a cache key, and a cache key needs a
    // policy that may cache. Nothing is cached in fact: the API's JSON answers say no-store
    // (functions/internal/api/encode.go), which a minimum TTL of 0 obeys, and one without
    // Cache-Control gets the default TTL of 0. Were one cached, it would be for at most a
    // second and only for the same Authorization, cookies and query.
    const apiCache = new cloudfront.CachePolicy(this, 'ApiNoCache', {
      comment: 'The API: nothing cached (no-store answers), Authorization forwarded',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList(...API_CACHE_HEADERS),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      cookieBehavior: cloudfront.CacheCookieBehavior.all(),
    });
    const apiRequests = new cloudfront.OriginRequestPolicy(this, 'ApiRequests', {
      comment: 'To the API: the headers it reads, CloudFront-Viewer-Address, all cookies and query strings',
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...API_ORIGIN_HEADERS),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.all(),
    });
    const viewerRequest = [{ function: this.viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }];
    // Only the pages' behaviour marks filtered views: the others serve files, never a page.
    const viewerResponse = [{ function: this.viewerResponse, eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE }];
    const site = (cache: cloudfront.ICachePolicy, marksFilteredViews = false): cloudfront.BehaviorOptions => ({
      origin: pages,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cache,
      originRequestPolicy: forwardAgent,
      responseHeadersPolicy: headers,
      functionAssociations: marksFilteredViews ? [...viewerRequest, ...viewerResponse] : viewerRequest,
      // The release stores compressible files gzip-compressed with Content-Encoding: gzip
      // (scripts/export-manifest.mjs); CloudFront serves those as stored (it compresses only
      // a response without a Content-Encoding, and never decompresses), so every client gets
      // gzip, not brotli (docs/build-and-release.md "How files are stored").
      compress: true,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Wholesale trade shop',
      webAclId: props.webAclArn,
      defaultRootObject: 'index.html',
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: site(pageCache, true),
      additionalBehaviors: {
        '/api/*': {
          origin: api,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCache,
          originRequestPolicy: apiRequests,
          responseHeadersPolicy: headers,
        },
        '/_next/static/*': site(
          cachePolicy(this, 'HashedAssetCache', 'Hashed assets: a year', CACHE_SECONDS.hashed, CACHE_SECONDS.hashed, CACHE_SECONDS.hashed),
        ),
        '/builds/latest.json': site(cloudfront.CachePolicy.CACHING_DISABLED),
        '/builds/meta/*': site(pageCache),
        '/media/*': {
          origin: media,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: cachePolicy(this, 'MediaCache', 'Product images: a day', 0, CACHE_SECONDS.media, CACHE_SECONDS.media),
          responseHeadersPolicy: headers,
          compress: true,
        },
      },
    });
    const acknowledge = (id: string, reason: string) => Validations.of(this.distribution).acknowledge({ id, reason });
    acknowledge('AwsSolutions-CFR1', 'A UK wholesale shop whose trade buyers may order from abroad; no law requires refusing any country.');
    acknowledge(
      'AwsSolutions-CFR3',
      "The shop's own request lines (every /api request, with its request id) and CloudFront's and the WAF's metrics and sampled requests cover what the standard logs would; they need a log bucket with ACLs, which the buckets here refuse. Turn them on (CloudFront's v2 log delivery) when an incident needs them.",
    );
    acknowledge(
      'AwsSolutions-CFR4',
      "The distribution serves on CloudFront's default *.cloudfront.net certificate, whose minimum protocol CloudFront fixes and no setting raises; when the shop's own domain and certificate are added to it, minimumProtocolVersion TLSv1.2_2021 goes with them.",
    );
  }
}

function privateBucket(scope: Construct, id: string, logicalId: string, keepOldVersions: Duration): s3.Bucket {
  const bucket = new s3.Bucket(scope, id, {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    versioned: true,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ noncurrentVersionExpiration: keepOldVersions, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
  });
  (bucket.node.defaultChild as CfnResource).overrideLogicalId(logicalId);
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'Read only by CloudFront (origin access control) and written only by the release and the picture upload, whose own logs record every write; server access logs would need a log bucket with ACLs, which BUCKET_OWNER_ENFORCED refuses. CloudTrail data events are the way to add them.',
  });
  return bucket;
}

function cachePolicy(scope: Construct, id: string, comment: string, minSeconds: number, defaultSeconds: number, maxSeconds: number) {
  return new cloudfront.CachePolicy(scope, id, {
    comment,
    minTtl: Duration.seconds(minSeconds),
    defaultTtl: Duration.seconds(defaultSeconds),
    maxTtl: Duration.seconds(maxSeconds),
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
    // The page's build-id / timestamp query on _payload.json and latest.json only busts
    // browser caches; the CDN serves one copy per path.
    queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
    headerBehavior: cloudfront.CacheHeaderBehavior.none(),
    cookieBehavior: cloudfront.CacheCookieBehavior.none(),
  });
}

function securityHeadersPolicy(scope: Construct, h: SecurityHeaders): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'SecurityHeaders', {
    comment: 'HSTS, CSP with frame-ancestors, nosniff (functions/internal/edge/security-headers.json)',
    securityHeadersBehavior: {
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(h.strictTransportSecurity.maxAgeSeconds),
        includeSubdomains: h.strictTransportSecurity.includeSubdomains,
        preload: h.strictTransportSecurity.preload,
        override: true,
      },
      contentSecurityPolicy: { contentSecurityPolicy: h.contentSecurityPolicy.join('; '), override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption[h.frameOptions], override: true },
      referrerPolicy: { referrerPolicy: referrerPolicy(h.referrerPolicy), override: true },
    },
  });
}

function referrerPolicy(value: string): cloudfront.HeadersReferrerPolicy {
  const found = Object.values(cloudfront.HeadersReferrerPolicy).find((p) => p === value);
  if (found === undefined) throw new Error(`security headers: unknown referrerPolicy ${value}`);
  return found;
}
