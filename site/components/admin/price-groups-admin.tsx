'use client';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { adminPriceGroupCreate, adminPriceGroups } from '@/lib/admin';
import { formatUkDateTime } from '@/lib/format';
import { byName, priceGroupFormProblems, rowsText, type PriceGroup } from '@/lib/price-groups';
import { FormOutcome } from './form-outcome';
import { PriceGroupImport } from './price-group-import';
import { useAdminSubmit } from './use-admin-submit';

type Groups = { status: 'loading' } | { status: 'ready'; groups: PriceGroup[] } | { status: 'failed'; text: string };

/** /admin/price-groups/: the price groups (docs/pricing.md), a form creating one, and for the
 * group chosen its CSV import (checked, reviewed, then applied) and export. Accounts are put
 * in a group on their own page. */
export function PriceGroupsAdmin() {
  const [groups, setGroups] = useState<Groups>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [chosen, setChosen] = useState('');

  useEffect(() => {
    const ctl = new AbortController();
    adminPriceGroups(ctl.signal).then(
      (g) => setGroups({ status: 'ready', groups: byName(g) }),
      (err: unknown) => !ctl.signal.aborted && setGroups({ status: 'failed', text: apiErrorText(err, 'The price groups could not be loaded.') }),
    );
    return () => ctl.abort();
  }, [attempt]);

  /** A group created or changed: it replaces its old self in the list. */
  const changed = (g: PriceGroup) =>
    setGroups((s) => (s.status === 'ready' ? { status: 'ready', groups: byName([...s.groups.filter((x) => x.id !== g.id), g]) } : s));

  const group = groups.status === 'ready' ? groups.groups.find((g) => g.id === chosen) : undefined;
  return (
    <>
      <h1>Price groups</h1>
      <p>
        A price group holds prices, discounts and quantity breaks for products, categories and ranges. Every account put in the group (on its own page under
        Accounts) is priced by it, with the account&apos;s own discounts over it. A group is imported and exported as CSV: the file is the whole group.
      </p>
      <section className="admin-actions" aria-labelledby="groups-heading">
        <h2 id="groups-heading">Groups</h2>
        {groups.status === 'loading' && <p role="status">Loading the price groups…</p>}
        {groups.status === 'failed' && <LoadFailed what={groups.text} retry={() => setAttempt((n) => n + 1)} />}
        {groups.status === 'ready' && <GroupsTable groups={groups.groups} chosen={chosen} choose={setChosen} />}
      </section>
      {group && <PriceGroupImport key={group.id} group={group} changed={changed} />}
      <CreateGroup
        created={(g) => {
          changed(g);
          setChosen(g.id);
        }}
      />
    </>
  );
}

function GroupsTable({ groups, chosen, choose }: { groups: PriceGroup[]; chosen: string; choose: (id: string) => void }) {
  if (groups.length === 0) return <p>There are no price groups yet: create one below.</p>;
  return (
    <table className="basket-table admin-table price-groups">
      <caption className="sr-only">Price groups</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Id</th>
          <th scope="col">Rows</th>
          <th scope="col">Updated</th>
          <th scope="col">
            <span className="sr-only">Import and export</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g.id} data-group={g.id} aria-current={g.id === chosen || undefined}>
            <th scope="row">{g.name}</th>
            <td data-label="Id">{g.id}</td>
            <td data-label="Rows">{rowsText(g.rows)}</td>
            <td data-label="Updated">{g.updated_at ? formatUkDateTime(g.updated_at) : '—'}</td>
            <td>
              <button type="button" className="link-button" onClick={() => choose(g.id)} aria-label={`Import or export ${g.name}`}>
                Import or export
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The form creating a group: its id (a slug, kept for good) and its name. */
function CreateGroup({ created }: { created: (g: PriceGroup) => void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();

  function create(e: FormEvent) {
    e.preventDefault();
    const found = priceGroupFormProblems({ id, name });
    setProblems(found);
    if (Object.keys(found).length) return;
    void submit(async () => {
      const g = await adminPriceGroupCreate(id.trim(), name.trim());
      created(g);
      setId('');
      setName('');
      return `The price group ${g.name} is created. Import its prices above.`;
    }, 'The price group could not be created.');
  }

  return (
    <section className="admin-actions" aria-labelledby="create-group-heading">
      <h2 id="create-group-heading">New price group</h2>
      <form className="form admin-form" onSubmit={create} noValidate aria-labelledby="create-group-heading">
        <FormOutcome outcome={outcome} />
        <Field
          id="group-id"
          label="Id"
          hint="Lowercase letters, digits and hyphens, such as garden-centres. It cannot be changed later."
          value={id}
          onChange={(e) => setId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          error={problems.id}
        />
        <Field
          id="group-name"
          label="Name"
          hint="As staff read it, such as Garden centres."
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          error={problems.name}
        />
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Creating…' : 'Create price group'}
        </button>
      </form>
    </section>
  );
}
