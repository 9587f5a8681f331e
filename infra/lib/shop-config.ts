import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseShop, type ShopSchema } from '../../site/lib/shop-validate.mjs';

/** functions/config/shop.json: the shop's constants and identity (docs/shop-config.md). */
export const SHOP_CONFIG_PATH = path.resolve(__dirname, '..', '..', 'functions', 'config', 'shop.json');

/** functions/config/shop-schema.json: the rules the Go functions and the site check shop.json against. */
export const SHOP_SCHEMA_PATH = path.resolve(__dirname, '..', '..', 'functions', 'config', 'shop-schema.json');

/** What the CDK app reads of shop.json. */
export interface ShopOperations {
  /** Who the stage's alarms email (shop.json operations.alarm_email). */
  readonly alarmEmail: string;
}

/**
 * Reads shop.json's `operations` after checking the whole file against shop-schema.json with
 * the site's interpreter (the same rules and messages as the Go functions), so a file the
 * functions would refuse fails synth too. An example address is valid here: the local and
 * test synths use it; scripts/deploy.mjs refuses to deploy with one.
 */
export function loadShopOperations(file: string = SHOP_CONFIG_PATH, schemaFile: string = SHOP_SCHEMA_PATH): ShopOperations {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as ShopSchema;
  const shop = parseShop(readFileSync(file, 'utf8'), schema) as { operations: { alarm_email: string } };
  return { alarmEmail: shop.operations.alarm_email };
}
