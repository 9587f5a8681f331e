import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseShop, type ShopSchema } from './shop-validate.mjs';

/** functions/config/shop.json: the business constants and identity the Go functions
 * use too. Checked against functions/config/shop-schema.json, as the Go side checks it. */
export interface ShopConfig {
  minimumOrderPence: number;
  freeDeliveryThresholdPence: number;
  deliveryOptions: { id: string; name: string; chargePence: number; freeOverThreshold: boolean }[];
  defaultVatRate: number;
  defaultDiscounts: Record<string, number>;
  /** Public quantity breaks of whole categories and ranges (docs/shop-config.md). */
  defaultBreaks: Record<string, { from: number; percent: number }[]>;
  /** Who the shop is in law (docs/shop-config.md). */
  business: {
    /** The name buyers see: titles, the logo, the footer. */
    tradingName: string;
    legalName: string;
    /** The part of the UK the company is registered in: England and Wales, Scotland... */
    registeredIn: string;
    registeredAddress: string;
    companyNumber: string;
    vatNumber: string;
  };
  bankTransfer: { accountName: string; sortCode: string; accountNumber: string };
  contact: { phone: string; email: string; address: string; hours: string };
  /** Who hears about trouble in the running shop: the CDK app subscribes alarm_email to
   * the stage's alarm topics (docs/infrastructure.md "Monitoring"). */
  operations: { alarm_email: string };
  /** Credit hold: days past its due date an invoice on account may owe before the
   * account cannot order on account (docs/back-office.md "Credit hold"). */
  credit: { hold_grace_days: number };
  /** How a delivery of a forward product is shared among its forward orders:
   * "pro-rata" or "first-come" (docs/forward-orders.md "Receiving and allocation"). */
  forwardAllocation: 'pro-rata' | 'first-come';
}

const configDir = () => path.join(process.cwd(), '..', 'functions', 'config');

/** Reads and checks a shop.json's text; throws naming every problem. */
export function parseShopConfig(text: string, schema: ShopSchema = readSchema()): ShopConfig {
  return parseShop(text, schema) as ShopConfig;
}

/** functions/config/shop-schema.json, the rules both sides interpret. */
export function readSchema(): ShopSchema {
  return JSON.parse(readFileSync(path.join(configDir(), 'shop-schema.json'), 'utf8')) as ShopSchema;
}

let cached: ShopConfig | undefined;

/** Reads the shop's constants at build time: a shop.json the Go functions would refuse
 * fails the build with the same message. */
export function getShopConfig(): ShopConfig {
  cached ??= parseShopConfig(readFileSync(path.join(configDir(), 'shop.json'), 'utf8'));
  return cached;
}
