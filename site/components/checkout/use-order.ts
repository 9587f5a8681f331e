'use client';
import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/api';
import { awaitInvoice, getOrder, type Order } from '@/lib/checkout';

/** Why an order could not be shown: not on the account (404), or any other failed load. */
export type OrderProblem = 'not-found' | 'failed';

/** Loads one of the signed-in buyer's orders (id; '' while not known yet) and, while its
 * VAT invoice is being issued, asks again until it is (invoiceLate: the asking gave up).
 * retry loads it again after a problem. */
export function useOrder(id: string, uid: string) {
  const [order, setOrder] = useState<Order | null>(null);
  const [problem, setProblem] = useState<OrderProblem | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [invoiceLate, setInvoiceLate] = useState(false);
  useEffect(() => {
    if (!uid || !id) return;
    let live = true;
    getOrder(id)
      .then((o) => live && setOrder(o))
      .catch((err: unknown) => live && setProblem(err instanceof ApiError && err.status === 404 ? 'not-found' : 'failed'));
    return () => {
      live = false;
    };
  }, [uid, id, attempt]);
  const issuing = order !== null && !order.invoice;
  useEffect(() => {
    if (!issuing) return;
    const stop = new AbortController();
    void awaitInvoice(id, { signal: stop.signal }).then((o) => {
      if (stop.signal.aborted) return;
      if (o) setOrder(o);
      else setInvoiceLate(true);
    });
    return () => stop.abort();
  }, [issuing, id]);
  const retry = () => {
    setProblem(null);
    setAttempt((n) => n + 1);
  };
  return { order, problem, invoiceLate, retry };
}
