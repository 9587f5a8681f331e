'use client';
import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/api';
import { awaitInvoice, awaitPayment, getOrder, type Order } from '@/lib/checkout';
import { paymentSettled } from '@/lib/payment-line';

/** Why an order could not be shown: not on the account (404), or any other failed load. */
export type OrderProblem = 'not-found' | 'failed';

/** Loads one of the signed-in buyer's orders (id; '' while not known yet) and, while its
 * VAT invoice is being issued, asks again until it is (invoiceLate: the asking gave up);
 * while its card payment waits for Stripe's word (or, returning from the payment page,
 * until it says paid), asks again every 2 s for a minute (paymentLate: the asking gave up).
 * retry loads it again after a problem. */
export function useOrder(id: string, uid: string, { returning = false }: { returning?: boolean } = {}) {
  const [order, setOrder] = useState<Order | null>(null);
  const [problem, setProblem] = useState<OrderProblem | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [invoiceLate, setInvoiceLate] = useState(false);
  const [paymentLate, setPaymentLate] = useState(false);
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
  // A forward order is not invoiced until its goods are allocated (as release orders):
  // nothing to wait for.
  const forward = order?.kind === 'forward';
  const issuing = order !== null && !order.invoice && !forward;
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
  const waiting = order !== null && !forward && !paymentSettled(order, returning);
  useEffect(() => {
    if (!waiting) return;
    const stop = new AbortController();
    const settled = (o: Order) => paymentSettled(o, returning);
    void awaitPayment(id, settled, { signal: stop.signal, seen: (o) => !stop.signal.aborted && setOrder(o) }).then((o) => {
      if (stop.signal.aborted) return;
      if (o) setOrder(o);
      else setPaymentLate(true);
    });
    return () => stop.abort();
  }, [waiting, id, returning]);
  const retry = () => {
    setProblem(null);
    setAttempt((n) => n + 1);
  };
  return { order, problem, invoiceLate, paymentLate, retry };
}
