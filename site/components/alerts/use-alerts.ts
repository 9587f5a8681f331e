'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { useAccount } from '@/components/account/use-account';
import { alertsState, requestAlerts, serverAlertsState, subscribeAlerts, type AlertsState } from '@/lib/alerts';

/** The signed-in buyer's back-in-stock alerts (lib/alerts.ts), read once for every page
 * that shows them; idle while signed out. */
export function useAlerts(): AlertsState {
  const account = useAccount();
  const signedIn = account.user !== 0;
  useEffect(() => {
    if (signedIn) requestAlerts();
  }, [signedIn]);
  return useSyncExternalStore(subscribeAlerts, alertsState, serverAlertsState);
}
