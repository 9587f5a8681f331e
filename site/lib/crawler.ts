const crawlerUA =
  /bot\b|crawler|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|lighthouse(?!.*chrome-lighthouse)|headlesschrome\/.*\(compatible;|mediapartners-google|adsbot|apis-google|feedfetcher|duckduckbot|yandex|baiduspider|petalbot|semrush|ahrefs/i;

/** Whether a user agent is a crawler; crawlers are not shown error pages. */
export function isCrawler(userAgent: string): boolean {
  return crawlerUA.test(userAgent);
}
