'use client';
import { useRef, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminCouponSave, adminCoupons, type AuditEntry, type Coupon } from '@/lib/admin';
import { expired, firstDay, hasEnded, lastDay } from '@/lib/admin-forms';
import { formatPence, formatUkDate } from '@/lib/format';
import { londonMidnight } from '@/lib/london-dates';
import { AuditTrail } from './audit-trail';
import { CouponEditor } from './coupon-editor';
import { FormOutcome } from './form-outcome';
import { useAdminRecord } from './use-admin-record';
import { useAdminSubmit } from './use-admin-submit';

/** /admin/coupons/: every coupon with its uses so far and limits; New coupon and Edit open
 * the form, Expire ends a coupon now. */
export function CouponsAdmin() {
  const { state, reload, replace } = useAdminRecord(adminCoupons, 'The coupons could not be loaded.');
  const [editing, setEditing] = useState<{ coupon: Coupon | null } | null>(null);
  const [changes, setChanges] = useState<{ id: string; audit: AuditEntry[] } | null>(null);
  const [notice, setNotice] = useState('');
  const expire = useAdminSubmit();
  const listHeading = useRef<HTMLHeadingElement>(null);
  // Which coupons have ended, as the list shows them: as of the page's last change.
  const [now, setNow] = useState(Date.now);
  const coupons = state.status === 'ready' ? state.data : [];

  /** Puts a saved coupon into the list (a new one at the top) and shows its changes. */
  function saved(coupon: Coupon, audit: AuditEntry[]) {
    setNow(() => Date.now());
    const i = coupons.findIndex((c) => c.id === coupon.id);
    replace(i === -1 ? [coupon, ...coupons] : coupons.map((c) => (c.id === coupon.id ? coupon : c)));
    setChanges({ id: coupon.id, audit });
  }

  async function expireNow(c: Coupon) {
    setNotice('');
    const ok = await expire.submit(async () => {
      const r = await adminCouponSave(expired(c, Date.now()), false);
      saved(r.coupon, r.audit);
      return `Coupon ${c.id} has expired: buyers can no longer use it.`;
    }, `Coupon ${c.id} could not be expired.`);
    if (ok) listHeading.current?.focus();
  }

  const reloadAll = () => {
    expire.reset();
    setNotice('');
    setEditing(null);
    reload();
  };

  let body;
  if (state.status === 'loading') body = <p role="status">Loading coupons…</p>;
  else if (state.status === 'failed') body = <LoadFailed what={state.text} retry={reload} />;
  else if (coupons.length === 0) body = <p>There are no coupons yet.</p>;
  else {
    body = (
      <table className="basket-table admin-table">
        <caption className="sr-only">Coupons</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Takes off</th>
            <th scope="col">Minimum spend</th>
            <th scope="col">Valid</th>
            <th scope="col">Used</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {coupons.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <strong>{c.id}</strong>
                <span className="muted admin-sub">{c.description}</span>
              </th>
              <td data-label="Takes off">{c.kind === 'percent' ? `${c.percent}%` : formatPence(c.amount)}</td>
              <td data-label="Minimum spend">{c.min_spend ? formatPence(c.min_spend) : 'None'}</td>
              <td data-label="Valid">{validity(c, now)}</td>
              <td data-label="Used">
                {c.used}
                {c.usage_limit ? ` of ${c.usage_limit}` : ''}
                {c.per_account_limit ? `, ${c.per_account_limit} per account` : ''}
              </td>
              <td className="admin-row-actions">
                <button type="button" className="button" onClick={() => setEditing({ coupon: c })} aria-label={`Edit ${c.id}`}>
                  Edit
                </button>{' '}
                {!hasEnded(c, now) && (
                  <button
                    type="button"
                    className="button"
                    aria-disabled={expire.busy}
                    onClick={() => !expire.busy && void expireNow(c)}
                    aria-label={`Expire ${c.id}`}
                  >
                    Expire
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <>
      <h1>Coupons</h1>
      {!editing && state.status === 'ready' && (
        <p>
          <button type="button" className="button" onClick={() => setEditing({ coupon: null })}>
            New coupon
          </button>
        </p>
      )}
      {editing && (
        <CouponEditor
          key={editing.coupon?.id ?? '(new)'}
          coupon={editing.coupon}
          saved={(r) => {
            saved(r.coupon, r.audit);
            expire.reset();
            setNotice(`Coupon ${r.coupon.id} is ${editing.coupon ? 'saved' : 'created'}.`);
            setEditing(null);
            listHeading.current?.focus();
          }}
          close={() => setEditing(null)}
          reload={reloadAll}
        />
      )}
      <h2 ref={listHeading} tabIndex={-1}>
        All coupons
      </h2>
      {notice && (
        <p className="form-ok" role="status">
          {notice}
        </p>
      )}
      <FormOutcome outcome={expire.outcome} reload={reloadAll} />
      {body}
      {changes && <AuditTrail entries={changes.audit} title={`Changes to ${changes.id}`} headingId="coupon-changes" />}
    </>
  );
}

/** When a coupon can be used, in London days; ended or not yet started said so. */
function validity(c: Coupon, now: number): string {
  if (hasEnded(c, now)) return `Expired ${formatUkDate(c.valid_to)}`;
  const from = firstDay(c.valid_from);
  const to = lastDay(c.valid_to);
  const day = (d: string) => formatUkDate(londonMidnight(d));
  if (c.valid_from > now) return `From ${day(from)}${to ? ` to ${day(to)}` : ''} (not yet)`;
  if (to) return `Until ${day(to)}`;
  return from ? `Since ${day(from)}` : 'Always';
}
