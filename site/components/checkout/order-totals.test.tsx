import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Totals } from './order-totals';

const figures = { goods_ex_vat: 12050, coupon_discount: 500, net_ex_vat: 12845, vat: 2469, total_inc_vat: 15314 };
/** The list's text, term and figure by term and figure. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('Totals', () => {
  it("shows a basket's totals: no delivery row, the coupon when it takes something off", () => {
    const html = renderToStaticMarkup(<Totals figures={{ ...figures, net_ex_vat: 11550 }} />);
    expect(text(html)).toBe('Goods ex VAT £120.50 Coupon −£5.00 Total ex VAT £115.50 VAT £24.69 Total inc VAT £153.14');
    for (const k of ['goods', 'coupon', 'net', 'vat', 'gross']) expect(html).toContain(`data-total="${k}"`);
    expect(html).not.toContain('data-total="delivery"');
    expect(text(renderToStaticMarkup(<Totals figures={{ ...figures, coupon_discount: 0 }} />))).not.toContain('Coupon');
  });

  it("shows a quote's delivery, Free where the option is free, and an order's charge as charged", () => {
    expect(renderToStaticMarkup(<Totals figures={figures} delivery="free" />)).toContain('<dd data-total="delivery">Free</dd>');
    expect(renderToStaticMarkup(<Totals figures={figures} delivery={0} />)).toContain('<dd data-total="delivery">£0.00</dd>');
    expect(text(renderToStaticMarkup(<Totals figures={figures} couponLabel="Coupon WELCOME5" delivery={1295} />))).toBe(
      'Goods ex VAT £120.50 Coupon WELCOME5 −£5.00 Delivery ex VAT £12.95 Total ex VAT £128.45 VAT £24.69 Total inc VAT £153.14',
    );
  });
});
