'use client';
import { LoadFailed } from '@/components/errors/load-failed';
import { loadProfile, type ProfileStatus } from '@/lib/account-store';

/** Shown where the profile is needed before it has arrived: a loading line, or what went
 * wrong with a way to try again. */
export function ProfilePending({ status }: { status: ProfileStatus }) {
  if (status !== 'error') return <p role="status">Loading your details…</p>;
  return <LoadFailed what="Your details could not be loaded." retry={() => void loadProfile()} />;
}
