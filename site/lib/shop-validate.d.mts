/** A node of functions/config/shop-schema.json. */
export type ShopSchema = Record<string, unknown>;
export function shopProblems(shop: unknown, schema: ShopSchema): string[];
export function validateShop<T>(shop: T, schema: ShopSchema): T;
export function parseShop(text: string, schema: ShopSchema): unknown;
