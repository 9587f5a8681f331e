import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** functions/config/shop.json: the business constants the Go functions use too. */
export interface ShopConfig {
  minimumOrderPence: number;
  freeDeliveryThresholdPence: number;
  deliveryOptions: { id: string; name: string; chargePence: number; freeOverThreshold: boolean }[];
  defaultVatRate: number;
  contact: { phone: string; email: string; address: string; hours: string };
}

let cached: ShopConfig | undefined;

/** Reads the shop's constants at build time. */
export function getShopConfig(): ShopConfig {
  cached ??= JSON.parse(
    readFileSync(path.join(process.cwd(), '..', 'functions', 'config', 'shop.json'), 'utf8'),
  ) as ShopConfig;
  return cached;
}
