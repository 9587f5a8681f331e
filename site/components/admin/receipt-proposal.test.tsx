import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { AdminReceiptPage, ProposalSKUAnswer } from '@/lib/api-types';
import { editKey } from '@/lib/receiving';
import { ReceiptProposal } from './receipt-proposal';
import { ReceiptReleases } from './receipt-releases';

const sku: ProposalSKUAnswer = {
  sku: 'XM-1',
  name: 'Robin card',
  pack_size: 6,
  received: 5,
  released: 5,
  leftover: 0,
  rows: [
    {
      order_id: 'TS-100001',
      line_sk: 'a',
      uid: 'u1',
      email: 'a@x',
      company: 'Robin Cards',
      placed_at: 0,
      want: 4,
      proposed: 3,
      short: 1,
      no_backorders: false,
    },
    { order_id: 'TS-100002', line_sk: 'b', uid: 'u2', email: 'b@x', company: '', placed_at: 0, want: 2, proposed: 2, short: 0, no_backorders: true },
  ],
};
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe("a delivery's proposal", () => {
  it('shows each line with its packs and the totals as staff edit them', () => {
    const html = renderToStaticMarkup(<ReceiptProposal sku={sku} edits={{ [editKey('XM-1', 'a')]: '1' }} setEdits={() => {}} problems={{}} />);
    expect(html).toContain('value="1"');
    expect(text(html)).toContain('Allocated 3 of 5 packs; 2 to stock.');
    expect(text(html)).toContain('TS-100002 b@x');
    expect(text(html)).toContain('Yes: short packs are cancelled');
  });

  it('says what is wrong when more is allocated than received', () => {
    const html = renderToStaticMarkup(<ReceiptProposal sku={sku} edits={{ [editKey('XM-1', 'a')]: '4' }} setEdits={() => {}} problems={{}} />);
    expect(text(html)).toContain('6 packs allocated but 5 were received.');
  });
});

describe('an applied delivery', () => {
  it('links each release order and says what was backordered and cancelled', () => {
    const page = {
      id: 'RCV-000001',
      releases: [
        {
          forward_order_id: 'TS-100001',
          uid: 'u1',
          release_id: 'TS-100009',
          done: true,
          lines: [{ sku: 'XM-1', pack_size: 6, planned: 3, released: 3, cancelled: 0, backordered: 1 }],
        },
        {
          forward_order_id: 'TS-100002',
          uid: 'u2',
          release_id: '',
          done: true,
          lines: [{ sku: 'XM-1', pack_size: 6, planned: 0, released: 0, cancelled: 2, backordered: 0 }],
        },
      ],
    } as unknown as AdminReceiptPage;
    const html = renderToStaticMarkup(<ReceiptReleases page={page} />);
    expect(html).toContain('href="/admin/orders/?id=TS-100009"');
    expect(text(html)).toContain('TS-100002 None XM-1 0 0 2');
  });
});
