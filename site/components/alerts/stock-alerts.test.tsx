import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { AlertsState } from '@/lib/alerts';

const alerts = vi.hoisted(() => ({ state: { status: 'idle', alerts: [] } as AlertsState }));
vi.mock('./use-alerts', () => ({ useAlerts: () => alerts.state }));
vi.mock('@/lib/alerts', () => ({ removeAlert: vi.fn(), requestAlerts: vi.fn() }));

const { StockAlerts } = await import('./stock-alerts');
const render = (state: AlertsState) => {
  alerts.state = state;
  return renderToStaticMarkup(<StockAlerts />);
};

describe("the dashboard's stock alerts", () => {
  it('lists each alert with its product link and a labelled Remove button, and says which are back', () => {
    const html = render({
      status: 'ready',
      alerts: [
        { sku: 'GC101-00001', name: 'Robin cards', path: '/robin-cards/', created_at: 1, in_stock: false },
        { sku: 'GC101-00002', name: 'Owl tags', path: '/owl-tags/', created_at: 2, in_stock: true },
      ],
    });
    expect(html).toContain('<h2 id="stock-alerts-heading" tabindex="-1">Stock alerts</h2>');
    expect(html).toContain('href="/robin-cards/"');
    expect(html).toContain('aria-label="Remove alert: Robin cards"');
    expect(html).toContain('aria-label="Remove alert: Owl tags"');
    expect(html.match(/back in stock: your email is on its way/g)).toHaveLength(1);
  });

  it('says when there are none, while they load, and when they could not be read', () => {
    expect(render({ status: 'ready', alerts: [] })).toContain('You have no stock alerts.');
    expect(render({ status: 'loading', alerts: [] })).toContain('Loading your stock alerts…');
    const failed = render({ status: 'error', alerts: [] });
    expect(failed).toContain('Your stock alerts could not be read.');
    expect(failed).toContain('>Try again</button>');
  });
});
