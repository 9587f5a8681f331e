import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// Vite (vitest's own bundler) parses TypeScript and JSX to an ESTree tree; the typescript
// package here is the native compiler, without a JavaScript API.
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';

// The browser does no money arithmetic beyond formatting: the server answers every amount
// (issue 23). This test parses every non-test .ts/.tsx file under components/ and lib/ and
// fails on arithmetic whose operand is a money value (pence), and on comparisons of two
// money values (a rule such as "free delivery from £300" is the server's). lib/format.ts,
// the formatting helper, is the one place allowed to do it.

const site = path.resolve(import.meta.dirname, '..');
const ALLOWED_FILES = new Set(['lib/format.ts']);

/** Arithmetic found that needs a server field before it can go, by file and expression. Each
 * is named in the report of issue 23; an entry that is no longer found fails the test, so
 * the list shrinks as the fields arrive. */
const WAITING_FOR_SERVER: Record<string, string> = {
  // The pages snapshot (functions/internal/pages) has no pack price: it needs pack_price
  // (and pack_price_inc_vat for the product page) so these pages can show the server's figures.
  'components/catalogue/product-detail.tsx: p.unit_price * p.pack_size': 'pages snapshot: packPrice',
  'components/catalogue/product-detail.tsx: Math.round((pack * (100 + p.vat_rate)) / 100)': 'pages snapshot: packPriceIncVat',
  'components/catalogue/product-grid.tsx: p.unit_price * p.pack_size': 'pages snapshot: packPrice',
};

/** Words that make a name a money value (pence), and words that make it something else
 * (a rate, a percentage, a count, an id). "total" alone is a count of products. */
const MONEY_WORDS = new Set(['pence', 'price', 'amount', 'charge', 'vat', 'discount', 'threshold', 'minimum', 'spend', 'net', 'goods', 'pack']);
const NOT_MONEY_WORDS = new Set(['rate', 'percent', 'size', 'count', 'id', 'number', 'label', 'state', 'left', 'packs']);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/_+/)
    .filter(Boolean);
}

/** Whether a name is a money value: unitPrice, net_ex_vat, chargePence, line_amount, pack (a
 * pack's price), but not vat_rate, discount_percent, packSize or total. */
export function isMoneyName(name: string): boolean {
  const w = words(name);
  if (w.some((x) => NOT_MONEY_WORDS.has(x))) return false;
  if (w.includes('total') && w.length > 1) return true;
  return w.some((x) => MONEY_WORDS.has(x));
}

// A node of the ESTree tree: only the fields read here.
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** The money names an operand is made of, looking through parentheses, arithmetic and
 * property access, but not into calls (formatPence(x) is already a string). */
function moneyNames(n: Node): string[] {
  switch (n.type) {
    case 'Identifier':
      return isMoneyName(n.name as string) ? [n.name as string] : [];
    case 'MemberExpression': {
      const p = n.property as Node;
      return !n.computed && p.type === 'Identifier' && isMoneyName(p.name as string) ? [p.name as string] : [];
    }
    case 'ParenthesizedExpression':
    case 'TSNonNullExpression':
    case 'TSAsExpression':
    case 'ChainExpression':
      return moneyNames(n.expression as Node);
    case 'UnaryExpression':
      return moneyNames(n.argument as Node);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return [...moneyNames(n.left as Node), ...moneyNames(n.right as Node)];
    case 'ConditionalExpression':
      return [...moneyNames(n.consequent as Node), ...moneyNames(n.alternate as Node)];
    default:
      return [];
  }
}

const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '**']);
const ASSIGNING = new Set(['+=', '-=', '*=', '/=', '%=']);
const COMPARISON = new Set(['<', '<=', '>', '>=']);
const ROUNDING = /^Math\.(floor|round|ceil|trunc|min|max|abs)$/;

const isText = (n: Node) => (n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral';

/** Every money calculation in one file's source, as the expressions' texts. */
export function moneyArithmetic(source: string, fileName = 'x.tsx'): string[] {
  const tree = parseAst(source, { lang: fileName.endsWith('x') ? 'tsx' : 'ts' }, fileName) as unknown as Node;
  const found: string[] = [];
  const text = (n: Node) => source.slice(n.start, n.end);
  const visit = (n: Node): void => {
    const op = n.operator as string | undefined;
    const money = (k: string) => moneyNames(n[k] as Node).length > 0;
    let hit = false;
    if (n.type === 'BinaryExpression' && op) {
      // "Basket (" + n + ")" is text, not arithmetic.
      const joinsText = op === '+' && (isText(n.left as Node) || isText(n.right as Node));
      if (ARITHMETIC.has(op) && !joinsText && (money('left') || money('right'))) hit = true;
      if (COMPARISON.has(op) && money('left') && money('right')) hit = true;
    } else if (n.type === 'AssignmentExpression' && op && ASSIGNING.has(op)) {
      hit = money('left') || money('right');
    } else if (n.type === 'UnaryExpression' && op === '-') {
      hit = money('argument');
    } else if (n.type === 'CallExpression' && ROUNDING.test(text(n.callee as Node))) {
      hit = (n.arguments as Node[]).some((a) => moneyNames(a).length > 0 || moneyArithmetic(`(${text(a)})`, fileName).length > 0);
    }
    if (hit) {
      found.push(text(n));
      return; // one finding per expression, not one per operator in it
    }
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) v.filter(isNode).forEach(visit);
      else if (isNode(v)) visit(v);
    }
  };
  visit(tree);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(path.join(site, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(site, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('moneyArithmetic', () => {
  it('finds the delivery step sums the browser used to do', () => {
    const old = `
      const isFree = (o: { id: string }) => o.id === 'standard' && basket.net_ex_vat >= info.free_delivery_threshold;
      const charge = free ? 0 : option.chargePence;
      const chargeVat = Math.floor((charge * 20 + 50) / 100);
      const a = <dd>{formatPence(basket.net_ex_vat + charge)}</dd>;
      const b = <dd>{formatPence(basket.vat + chargeVat)}</dd>;
      const c = basket.goods_ex_vat - basket.coupon_discount;
      let t = 0; t += l.line_amount;
      const d = -o.delivery_charge;`;
    expect(moneyArithmetic(old)).toEqual([
      'basket.net_ex_vat >= info.free_delivery_threshold',
      'Math.floor((charge * 20 + 50) / 100)',
      'basket.net_ex_vat + charge',
      'basket.vat + chargeVat',
      'basket.goods_ex_vat - basket.coupon_discount',
      't += l.line_amount',
      '-o.delivery_charge',
    ]);
  });

  it('leaves units, counts, rates, text and showing or hiding alone', () => {
    const fine = `
      await addToBasket(sku, n * packSize);
      const q = x.packs * x.pack_size;
      const packs = String(l.quantity / l.pack_size);
      const to = Math.min(from + CATEGORY_PAGE_SIZE, total);
      const label = 'Basket (' + count + ')';
      const shown = basket.coupon_discount > 0 && basket.below_minimum_by > 0;
      const r = 100 + p.vatRate + l.discount_percent;
      const s = <dd>{formatPence(basket.total_inc_vat)}</dd>;`;
    expect(moneyArithmetic(fine)).toEqual([]);
  });
});

describe('site/components and site/lib', () => {
  it('do no money arithmetic outside lib/format.ts', () => {
    const found: string[] = [];
    for (const file of [...sources('components'), ...sources('lib')]) {
      if (ALLOWED_FILES.has(file)) continue;
      for (const expr of moneyArithmetic(readFileSync(path.join(site, file), 'utf8'), file)) found.push(`${file}: ${expr}`);
    }
    expect(found.filter((f) => !(f in WAITING_FOR_SERVER))).toEqual([]);
    // An entry whose arithmetic is gone comes off the list.
    expect(Object.keys(WAITING_FOR_SERVER).filter((k) => !found.includes(k))).toEqual([]);
  });
});
