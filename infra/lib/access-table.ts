import { MEDIA_PRODUCTS_PREFIX, type FunctionRights } from './endpoints';

/**
 * The docs/infrastructure.md table of each function's rights, rendered from
 * endpoints.json (infra/test/access-table.test.ts keeps the docs equal to it): one row per
 * IAM statement on the table (and on the media bucket for a function with mediaBucket, on the
 * publish project and its log group for one with publishBuild), with
 * the secrets the function is given.
 */
export function renderAccessTable(
  functions: readonly (FunctionRights & { readonly mediaBucket?: boolean; readonly publishBuild?: boolean })[],
  withOriginSecret: (name: string) => boolean,
  otherSecrets: (name: string) => readonly string[] = () => [],
): string {
  const rows = ['| function | actions | on partition keys (`dynamodb:LeadingKeys`), index or bucket | secrets |', '|---|---|---|---|'];
  for (const f of functions) {
    const secrets =
      [
        ...(f.csrfSecret ? ['CSRF'] : []),
        ...(withOriginSecret(f.name) ? ['origin'] : []),
        ...(f.stripeSecret ? ['Stripe (read at cold start)'] : []),
        ...otherSecrets(f.name),
      ].join(', ') || 'none';
    if (f.access.length === 0 && !f.mediaBucket && !f.publishBuild) rows.push(`| \`${f.name}\` | none | | ${secrets} |`);
    for (const g of f.access) {
      const actions = g.actions.map((a) => a.replace(/^dynamodb:/, '')).join(', ');
      const where = g.index === undefined ? g.keys.map((k) => `\`${k}\``).join(', ') : `index \`${g.index}\` (catalogue)`;
      rows.push(`| \`${f.name}\` | ${actions} | ${where} | ${secrets} |`);
    }
    if (f.mediaBucket) {
      rows.push(`| \`${f.name}\` | s3:PutObject, s3:GetObject | media bucket, objects \`${MEDIA_PRODUCTS_PREFIX}*\` | ${secrets} |`);
      rows.push(`| \`${f.name}\` | s3:ListBucket | media bucket (a missing picture is a 404, not a 403) | ${secrets} |`);
    }
    if (f.publishBuild) {
      rows.push(`| \`${f.name}\` | codebuild:StartBuild, ListBuildsForProject, BatchGetBuilds | the publish project | ${secrets} |`);
      rows.push(`| \`${f.name}\` | logs:GetLogEvents | the publish project's log group | ${secrets} |`);
    }
  }
  return rows.join('\n');
}
