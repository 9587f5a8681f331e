/** The account pro-forma orders are paid into. */
export interface BankTransfer {
  accountName: string;
  sortCode: string;
  accountNumber: string;
}

/** Reads the bank details next.config.ts puts in the build from functions/config/shop.json
 * (scripts/build.mjs refuses a staging or production build while they are placeholders). */
export function parseBankTransfer(raw: string | undefined): BankTransfer | null {
  if (!raw) return null;
  const b = JSON.parse(raw) as Partial<BankTransfer> | null;
  return b?.accountName && b.sortCode && b.accountNumber ? { accountName: b.accountName, sortCode: b.sortCode, accountNumber: b.accountNumber } : null;
}

/** This build's bank details, or null in a build without them (unit tests). */
export const bankTransfer = parseBankTransfer(process.env.NEXT_PUBLIC_BANK_TRANSFER);
