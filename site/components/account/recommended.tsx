'use client';
import { useEffect, useState } from 'react';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { LoadFailed } from '@/components/errors/load-failed';
import { idToken } from '@/lib/account-store';
import { apiFetch } from '@/lib/api';
import type { RecommendedAnswer } from '@/lib/api-types';
import { SignedOutNotice } from './signed-out-notice';
import { useAccount } from './use-account';

/** The lead line for what the products were picked from. */
const leads: Record<RecommendedAnswer['reason'], string> = {
  basket: 'Picked from the categories in your basket.',
  orders: 'Picked from the categories of your recent orders.',
  catalogue: 'A selection from the first sections of our catalogue.',
};

/** Products picked for the buyer (POST /api/recommended), drawn like a category grid. */
export function Recommended() {
  const account = useAccount();
  const [answer, setAnswer] = useState<RecommendedAnswer | null>(null);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const uid = account.user === 0 ? '' : account.user.uid;
  useEffect(() => {
    if (!uid) return;
    let live = true;
    idToken()
      .then((token) => apiFetch<RecommendedAnswer>('/api/recommended', { body: { token } }))
      .then((a) => live && setAnswer(a))
      .catch(() => live && setError(true));
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  if (account.status === 'loading') return <p role="status">Loading…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error) {
    return (
      <LoadFailed
        what="Recommendations could not be loaded."
        retry={() => {
          setError(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (!answer) return <p role="status">Finding products for you…</p>;
  return (
    <>
      <p className="lead">{leads[answer.reason]}</p>
      <ProductGrid products={answer.products} label="Recommended products" />
    </>
  );
}
