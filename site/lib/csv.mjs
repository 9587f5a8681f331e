// CSV as the catalogue export writes it (RFC 4180: a field holding a comma, a quote or a
// line break is quoted, a quote inside doubled). Plain JavaScript, so the scripts (the fault
// suite, the publish bench) and the end-to-end tests read and write it with the same code.

/** A CSV text's rows of fields; a line ends at \n or \r\n.
 * @param {string} text
 * @returns {string[][]} */
export function parseCSV(text) {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

/** One CSV line of fields, quoting only the fields that need it.
 * @param {string[]} row
 * @returns {string} */
export const csvLine = (row) => row.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');
