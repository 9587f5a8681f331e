import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAccessTable } from '../lib/access-table';
import { loadEndpoints, loadJobs } from '../lib/endpoints';

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'infrastructure.md');
const START = '<!-- access table: generated from endpoints.json, kept equal by infra/test/access-table.test.ts -->';
const END = '<!-- end of access table -->';

describe('docs/infrastructure.md', () => {
  it("has the table of every function's table grants and secrets, equal to endpoints.json", () => {
    const doc = readFileSync(DOC, 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from, `docs/infrastructure.md lacks the line ${START}`).toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    const endpoints = loadEndpoints();
    const want = renderAccessTable(
      [...endpoints, ...loadJobs()],
      (name) => endpoints.some((e) => e.name === name),
      (name) => (name === 'sendEmails' ? ['SMTP (read at cold start)'] : []),
    );
    // On a change to endpoints.json, paste the expected table between the two lines.
    expect(doc.slice(from + START.length, to).trim()).toBe(want);
  });
});
