import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { formatUkDateTime } from '@/lib/format';
import type { HealthAnswer } from '@/lib/health';
import { AppErrorsTable } from './app-errors-table';
import { HealthBacklogs } from './health-backlogs';

const now = Date.UTC(2026, 10, 27, 12, 0);
const quiet: HealthAnswer = {
  checked_at: now,
  app_errors: [],
  outbox: { waiting: 0, failed: 0, more: false, oldest_waiting_at: null },
  orders_pending: { count: 0, more: false, oldest_at: null },
  orders_to_invoice: { count: 0, more: false, oldest_at: null },
  last_import: null,
};

describe('the Health page', () => {
  it('shows each app error group with its path, status, count and times in London time', () => {
    const html = renderToStaticMarkup(
      <AppErrorsTable
        groups={[
          {
            kind: 'api',
            name: 'ApiError',
            message: 'GET /api/orders answered 500: No.',
            path: '/account/orders/',
            status: 500,
            count: 3,
            first_seen: now - 3_600_000,
            last_seen: now,
            build: 'b1',
          },
        ]}
      />,
    );
    expect(html).toContain('<th scope="row" class="health-message"><span class="muted">ApiError:</span> GET /api/orders answered 500: No.</th>');
    expect(html).toContain(
      '<td class="health-path" data-label="Path">/account/orders/</td><td class="health-status" data-label="Status">500</td><td class="health-count" data-label="Count">3</td>',
    );
    expect(html).toContain(`<td data-label="Last seen">${formatUkDateTime(now)}</td><td data-label="Build">b1</td>`); // London time
    const noStatus = renderToStaticMarkup(
      <AppErrorsTable
        groups={[
          {
            kind: 'chunk',
            name: 'ChunkLoadError',
            message: 'Loading chunk 7 failed.',
            path: '/',
            status: 0,
            count: 1,
            first_seen: now,
            last_seen: now,
            build: '',
          },
        ]}
      />,
    );
    expect(noStatus).toContain('<td class="health-status" data-label="Status">—</td>');
    expect(noStatus).toContain('<td data-label="Build"><span class="muted">unknown</span></td>');
    expect(renderToStaticMarkup(<AppErrorsTable groups={[]} />)).toContain('No app errors reported');
  });

  it('warns only when the oldest waits longer than its alarm allows', () => {
    expect(renderToStaticMarkup(<HealthBacklogs health={quiet} />)).not.toContain('role="alert"');
    const late = renderToStaticMarkup(
      <HealthBacklogs
        health={{
          ...quiet,
          outbox: { waiting: 2, failed: 1, more: false, oldest_waiting_at: now - 16 * 60_000 },
          orders_pending: { count: 1, more: false, oldest_at: now - 5 * 60_000 },
          orders_to_invoice: { count: 500, more: true, oldest_at: now - 11 * 60_000 },
        }}
      />,
    );
    expect(late).toContain('An email has waited 16 minutes to be sent, longer than 15 minutes');
    expect(late).not.toContain('pending for');
    expect(late).toContain('An order has waited 11 minutes for its invoice, longer than 10 minutes');
    expect(late).toContain('<dd class="health-orders-to-invoice">500 or more');
  });
});
