'use client';
import Link from '@/components/app/link';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminAccount, adminAccountUpdate, adminPriceGroups, type AccountWithAudit, type AdminAccount } from '@/lib/admin';
import { checkAccountForm, poundsInput } from '@/lib/admin-forms';
import { dscForEditing, dscProblemsOf } from '@/lib/discounts';
import { formatPence } from '@/lib/format';
import { byName, type PriceGroup } from '@/lib/price-groups';
import { AuditTrail } from './audit-trail';
import { CreditHoldPanel } from './credit-hold-panel';
import { FormOutcome } from './form-outcome';
import { useAdminRecord } from './use-admin-record';
import { useAdminSubmit } from './use-admin-submit';
import { AccountPayments } from './payments/account-payments';

/** One account: who it is, what it owes, its credit approval and limit, its price group and
 * its own discounts, and its changes. */
export function AdminAccountDetail({ uid }: { uid: string }) {
  const { state, reload, replace } = useAdminRecord(() => adminAccount(uid), 'The account could not be loaded.');
  let body;
  if (state.status === 'loading') body = <p role="status">Loading the account…</p>;
  else if (state.status === 'failed') {
    body = state.notFound ? (
      <p className="form-error" role="alert">
        There is no such account. <Link href="/admin/accounts/">Back to the accounts</Link>
      </p>
    ) : (
      <LoadFailed what={state.text} retry={reload} />
    );
  } else {
    const { account, audit } = state.data;
    // A payment, allocation or refund moves what is owed and adds to the trail: read the
    // account again in the background, keeping the page (and the form's outcome) as it is.
    const refresh = () => void adminAccount(uid).then(replace, () => {});
    body = (
      <>
        <AccountFacts account={account} />
        <AccountPayments uid={account.uid} changed={refresh} />
        <CreditHoldPanel uid={account.uid} lifted={reload} />
        <AccountForm account={account} saved={replace} reload={reload} />
        <AuditTrail entries={audit} />
      </>
    );
  }
  const name = state.status === 'ready' ? state.data.account.business || state.data.account.email : '';
  return (
    <>
      <h1>Account{name ? `: ${name}` : ''}</h1>
      <p>
        <Link href="/admin/accounts/">← All accounts</Link> · <Link href={`/admin/?q=${encodeURIComponent(name)}`}>Orders of this business</Link>
      </p>
      {body}
    </>
  );
}

function AccountFacts({ account: a }: { account: AdminAccount }) {
  const b = a.billing;
  return (
    <dl className="summary-list admin-facts">
      <dt>Business</dt>
      <dd>{a.business || 'Not set'}</dd>
      <dt>Email</dt>
      <dd>{a.email}</dd>
      <dt>Telephone</dt>
      <dd>{a.telephone || 'Not set'}</dd>
      <dt>Billing</dt>
      <dd>
        {b ? (
          <>
            {b.company}, {b.contact}, {b.address.line1}
            {b.address.line2 && `, ${b.address.line2}`}, {b.address.town} {b.address.postcode}
            {b.vat_number && ` · VAT ${b.vat_number}`}
          </>
        ) : (
          'Not given yet'
        )}
      </dd>
      <dt>Owed on account</dt>
      <dd className="account-owed">{formatPence(a.owed)}</dd>
      <dt>Credit</dt>
      <dd>
        {a.approved_for_credit
          ? a.credit_limit === null
            ? 'Approved, no limit set'
            : `Approved, limit ${formatPence(a.credit_limit)}`
          : 'Not approved: pays pro-forma'}
      </dd>
    </dl>
  );
}

/** Credit approval with its limit in pounds (required when approved), the account's price
 * group, and its own discounts as a JSON object (over the group's), each key's problem said
 * under the box. */
function AccountForm({ account, saved, reload }: { account: AdminAccount; saved: (a: AccountWithAudit) => void; reload: () => void }) {
  const [approved, setApproved] = useState(account.approved_for_credit);
  const [creditLimit, setCreditLimit] = useState(account.credit_limit === null ? '' : poundsInput(account.credit_limit));
  const [dsc, setDsc] = useState(dscForEditing(account.dsc));
  const [priceGroup, setPriceGroup] = useState(account.price_group);
  const groups = usePriceGroups();
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const dscProblems = dscProblemsOf(problems);
  const dscHasProblems = !!dscProblems.whole || dscProblems.keys.length > 0;

  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkAccountForm({ approved, creditLimit, dsc, priceGroup }, account);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      saved(await adminAccountUpdate(account.uid, r.value));
      return 'The account is saved.';
    }, 'The account could not be saved.');
  }

  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="account-form">
      <h2 id="account-form">Credit, price group and discounts</h2>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          reload();
        }}
      />
      <div className="check">
        <input id="approved" type="checkbox" checked={approved} onChange={(e) => setApproved(e.target.checked)} />
        <label htmlFor="approved">Approved for credit (may pay on account)</label>
      </div>
      {problems.approved_for_credit && <p className="field-error">{problems.approved_for_credit}</p>}
      <Field
        id="credit-limit"
        label="Credit limit in pounds"
        hint={approved ? 'Required: the most this account may owe at once.' : 'Only for an account approved for credit.'}
        inputMode="decimal"
        value={creditLimit}
        onChange={(e) => setCreditLimit(e.target.value)}
        disabled={!approved}
        required={approved}
        error={problems.credit_limit}
      />
      <div className="field">
        <label htmlFor="price-group">Price group</label>
        <p id="price-group-hint" className="muted" style={{ margin: 0 }}>
          {groups === 'failed'
            ? 'The price groups could not be loaded: the account keeps its group. Reload the page to change it.'
            : 'The group prices this account; its own discounts below count over the group’s.'}
        </p>
        <select
          id="price-group"
          value={priceGroup}
          onChange={(e) => setPriceGroup(e.target.value)}
          disabled={groups === 'failed' || groups === 'loading'}
          aria-invalid={problems.price_group ? true : undefined}
          aria-describedby={problems.price_group ? 'price-group-hint price-group-error' : 'price-group-hint'}
        >
          <option value="">None (list prices)</option>
          {groupOptions(groups, account.price_group).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name} ({g.id})
            </option>
          ))}
        </select>
        {problems.price_group && (
          <p id="price-group-error" className="field-error">
            {problems.price_group}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="dsc">Discounts (JSON)</label>
        <p id="dsc-hint" className="muted" style={{ margin: 0 }}>
          Key to whole percent, such as {'{"range:wholesale-christmas": 10, "category:803": 5, "product:GC101-00001": 15}'}. Empty for none.
        </p>
        <textarea
          id="dsc"
          rows={6}
          spellCheck={false}
          value={dsc}
          onChange={(e) => setDsc(e.target.value)}
          aria-invalid={dscHasProblems || undefined}
          aria-describedby={dscHasProblems ? 'dsc-hint dsc-error' : 'dsc-hint'}
        />
        {dscHasProblems && (
          <div id="dsc-error" className="field-error">
            {dscProblems.whole && <p>{dscProblems.whole}</p>}
            {dscProblems.keys.length > 0 && (
              <ul>
                {dscProblems.keys.map(([key, problem]) => (
                  <li key={key}>{problem}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

/** The price groups an account may be put in, for the form's select. */
function usePriceGroups(): PriceGroup[] | 'loading' | 'failed' {
  const [groups, setGroups] = useState<PriceGroup[] | 'loading' | 'failed'>('loading');
  useEffect(() => {
    const ctl = new AbortController();
    adminPriceGroups(ctl.signal).then(
      (g) => setGroups(byName(g)),
      () => !ctl.signal.aborted && setGroups('failed'),
    );
    return () => ctl.abort();
  }, []);
  return groups;
}

/** The select's groups: every group, and the account's own while the list is not here (or
 * no longer holds it), so the select shows what the account is in. */
function groupOptions(groups: PriceGroup[] | 'loading' | 'failed', current: string): Pick<PriceGroup, 'id' | 'name'>[] {
  const list = Array.isArray(groups) ? groups : [];
  if (current && !list.some((g) => g.id === current)) return [{ id: current, name: current }, ...list];
  return list;
}
