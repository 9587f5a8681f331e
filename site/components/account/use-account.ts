'use client';
import { useSyncExternalStore } from 'react';
import { accountState, initialAccountState, subscribeAccount, type AccountState } from '@/lib/account-store';

/** The account state: who is signed in, their profile and basket lines. */
export function useAccount(): AccountState {
  return useSyncExternalStore(subscribeAccount, accountState, () => initialAccountState);
}
