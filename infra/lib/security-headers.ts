import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Absolute path of functions/internal/edge/security-headers.json: the security headers of
 * every response. The Go local edge sends the same ones, so the end-to-end tests run
 * under the policy CloudFront will apply.
 */
export const SECURITY_HEADERS_PATH = path.resolve(__dirname, '..', '..', 'functions', 'internal', 'edge', 'security-headers.json');

/** The parsed file. */
export interface SecurityHeaders {
  readonly strictTransportSecurity: { readonly maxAgeSeconds: number; readonly includeSubdomains: boolean; readonly preload: boolean };
  /** CSP directives, joined with "; " into the header. */
  readonly contentSecurityPolicy: readonly string[];
  readonly frameOptions: 'DENY' | 'SAMEORIGIN';
  readonly referrerPolicy: string;
  readonly contentTypeOptions: 'nosniff';
}

/** Reads and checks the file; synth fails with the reason if it is broken. */
export function loadSecurityHeaders(file: string = SECURITY_HEADERS_PATH): SecurityHeaders {
  const h = JSON.parse(readFileSync(file, 'utf8')) as SecurityHeaders;
  const fail = (msg: string): never => {
    throw new Error(`${file}: ${msg}`);
  };
  if (!(h.strictTransportSecurity?.maxAgeSeconds > 0)) fail('strictTransportSecurity.maxAgeSeconds must be positive');
  if (!Array.isArray(h.contentSecurityPolicy) || !h.contentSecurityPolicy.some((d) => d.startsWith('frame-ancestors '))) {
    fail('contentSecurityPolicy must be a list of directives including frame-ancestors');
  }
  if (h.frameOptions !== 'DENY' && h.frameOptions !== 'SAMEORIGIN') fail('frameOptions must be DENY or SAMEORIGIN');
  if (h.contentTypeOptions !== 'nosniff') fail('contentTypeOptions must be nosniff');
  return h;
}
