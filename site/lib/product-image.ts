// A product may have no picture: the catalogue import leaves small_img and large_img empty
// (functions/internal/catalogue). Wherever the site draws a product image it draws this
// placeholder instead, at the same size, so no layout moves (docs/catalogue.md).

/** What a screen reader hears for the placeholder. */
export const NO_PICTURE_ALT = 'No picture';

/** The placeholder: a pale square with a parcel, drawn at any size from its viewBox. An
 * inline data: URL (the security headers' img-src allows data:), so it costs no request
 * and never fails to load. */
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">' +
  '<rect width="160" height="160" fill="#f3f5f8"/>' +
  '<g fill="none" stroke="#9aa3b2" stroke-width="4" stroke-linejoin="round" stroke-linecap="round">' +
  '<path d="M48 62 80 46l32 16v40l-32 16-32-16z"/>' +
  '<path d="M48 62l32 16 32-16M80 78v40"/>' +
  '<path d="M64 54l32 16v12"/>' +
  '</g></svg>';

export const NO_PICTURE_SRC = `data:image/svg+xml,${encodeURIComponent(svg)}`;

/** Whether an image path names a picture: an empty (or missing) one does not. */
export function hasPicture(src: string | null | undefined): src is string {
  return typeof src === 'string' && src.trim() !== '';
}

/** The src and alt to draw a product image with: the picture with its own alt, or the
 * placeholder, which says "No picture" (a grid's decorative alt="" would say nothing). */
export function productImage(src: string | null | undefined, alt: string): { src: string; alt: string; placeholder: boolean } {
  return hasPicture(src) ? { src, alt, placeholder: false } : { src: NO_PICTURE_SRC, alt: NO_PICTURE_ALT, placeholder: true };
}
