'use client';
import { useSyncExternalStore } from 'react';
import { accountState, subscribeAccount, type AccountState } from '@/lib/account-store';

const serverState: AccountState = { status: 'loading', user: 0, profile: null, cart: [], basket: 'idle', cartUpdated: 0 };

/** The account state: who is signed in, their profile and basket lines. */
export function useAccount(): AccountState {
  return useSyncExternalStore(subscribeAccount, accountState, () => serverState);
}
