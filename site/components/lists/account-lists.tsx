'use client';
import { useSearchParams } from 'next/navigation';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { ListView } from './list-view';
import { ListsIndex } from './lists-index';

/** /account/lists/: the list named by ?id=, or without an id the buyer's saved lists. */
export function AccountLists() {
  const id = useSearchParams().get('id') ?? '';
  const account = useAccount();
  if (account.status === 'loading' || account.user === 0) {
    return (
      <>
        <h1>{id ? 'Saved list' : 'Saved lists'}</h1>
        {account.status === 'loading' ? <p role="status">Loading…</p> : <SignedOutNotice />}
      </>
    );
  }
  return id ? <ListView key={id} id={id} uid={account.user.uid} /> : <ListsIndex uid={account.user.uid} />;
}
