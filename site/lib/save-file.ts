/** How long an object URL outlives its click: the browser may read the blob after click()
 * returns (older Firefox and Safari did), so it is not revoked at once. */
export const REVOKE_AFTER_MS = 10_000;

/** Hands a blob to the browser as a download named fileName: a temporary object URL and a
 * temporary <a download> clicked, then the URL revoked. */
export function saveFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  doc.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
