'use client';
import { ErrorView } from '@/components/errors/error-view';

export default function ErrorPage({ error, reset }: { error: Error & { statusCode?: number }; reset: () => void }) {
  return <ErrorView error={error} reset={reset} />;
}
