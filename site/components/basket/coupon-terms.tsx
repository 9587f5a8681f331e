'use client';
import { useEffect, useState } from 'react';
import { couponTerms, getCoupon } from '@/lib/basket';

/** The terms of the basket's coupon (POST /api/getCoupon): what it takes off, from what
 * spend, until when. Nothing while they load or when the coupon cannot be used (the
 * basket says why). */
export function CouponTerms({ code }: { code: string }) {
  const [terms, setTerms] = useState<{ code: string; text: string } | null>(null);
  useEffect(() => {
    let current = true;
    getCoupon(code)
      .then((c) => current && setTerms({ code, text: couponTerms(c) }))
      .catch(() => current && setTerms(null));
    return () => {
      current = false;
    };
  }, [code]);
  if (terms?.code !== code) return null;
  return <p className="coupon-terms">{terms.text}</p>;
}
