/** A CSV text's rows of fields; a line ends at \n or \r\n. */
export function parseCSV(text: string): string[][];
/** One CSV line of fields, quoting only the fields that need it. */
export function csvLine(row: string[]): string;
