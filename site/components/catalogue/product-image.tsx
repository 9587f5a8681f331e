import type { ImgHTMLAttributes } from 'react';
import { productImage } from '@/lib/product-image';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt' | 'width' | 'height'> & {
  /** The image path; empty (or missing) for a product without a picture. */
  src: string | null | undefined;
  alt: string;
  width: number;
  height: number;
};

/** A product's picture, or for a product without one the "No picture" placeholder at the
 * same width and height, so the grid, page or basket line keeps its layout. */
export function ProductImage({ src, alt, className, ...rest }: Props) {
  const img = productImage(src, alt);
  const classes = [className, img.placeholder ? 'no-picture' : ''].filter(Boolean).join(' ');
  return <img {...rest} src={img.src} alt={img.alt} className={classes || undefined} data-placeholder={img.placeholder ? 'true' : undefined} />;
}
