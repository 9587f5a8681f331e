import type { FunctionRights } from './endpoints';

/**
 * The docs/infrastructure.md table of each function's rights, rendered from
 * endpoints.json (infra/test/access-table.test.ts keeps the docs equal to it): one row per
 * IAM statement on the table, with the secrets the function is given.
 */
export function renderAccessTable(
  functions: readonly FunctionRights[],
  withOriginSecret: (name: string) => boolean,
  otherSecrets: (name: string) => readonly string[] = () => [],
): string {
  const rows = ['| function | DynamoDB actions | on partition keys (`dynamodb:LeadingKeys`) or index | secrets |', '|---|---|---|---|'];
  for (const f of functions) {
    const secrets = [...(f.csrfSecret ? ['CSRF'] : []), ...(withOriginSecret(f.name) ? ['origin'] : []), ...otherSecrets(f.name)].join(', ') || 'none';
    if (f.access.length === 0) rows.push(`| \`${f.name}\` | none | | ${secrets} |`);
    for (const g of f.access) {
      const actions = g.actions.map((a) => a.replace(/^dynamodb:/, '')).join(', ');
      const where = g.index === undefined ? g.keys.map((k) => `\`${k}\``).join(', ') : `index \`${g.index}\` (catalogue)`;
      rows.push(`| \`${f.name}\` | ${actions} | ${where} | ${secrets} |`);
    }
  }
  return rows.join('\n');
}
