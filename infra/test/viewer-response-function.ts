import { readFileSync } from 'node:fs';
import { VIEWER_RESPONSE_FUNCTION_PATH } from '../lib/static-site';

// The viewer-response CloudFront function's real source, loaded in Node as CloudFront runs
// it, for the shared vectors (viewer-request.test.ts) and its own tests.

type Header = { value: string };
type Query = Record<string, { value: string; multiValue?: { value: string }[] }>;
export interface ViewerResponseEvent {
  version: string;
  context: object;
  viewer: object;
  request: { method: string; uri: string; querystring: Query; headers: Record<string, Header> };
  response: { statusCode: number; statusDescription?: string; headers: Record<string, Header> };
}
export type ViewerResponseHandler = (event: ViewerResponseEvent) => Promise<ViewerResponseEvent['response']>;

/** The function's handler and its list of filtered-view keys. */
export function loadViewerResponse(): { handler: ViewerResponseHandler; filteredViewKeys: string[] } {
  const source = readFileSync(VIEWER_RESPONSE_FUNCTION_PATH, 'utf8');
  return new Function(`${source}\nreturn { handler, filteredViewKeys: FILTERED_VIEW_KEYS };`)() as {
    handler: ViewerResponseHandler;
    filteredViewKeys: string[];
  };
}

/** The viewer-response event of request (as CloudFront has it) answered with status and no headers. */
export function responseEvent(request: ViewerResponseEvent['request'], status: number): ViewerResponseEvent {
  return { version: '1.0', context: { eventType: 'viewer-response' }, viewer: { ip: '192.0.2.1' }, request, response: { statusCode: status, headers: {} } };
}
