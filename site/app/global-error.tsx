'use client';
import { ErrorView } from '@/components/errors/error-view';
import './globals.css';

// Replaces the root layout when the layout itself fails.
export default function GlobalError({ error, reset }: { error: Error & { statusCode?: number }; reset: () => void }) {
  return (
    <html lang="en-GB">
      <body>
        <main id="main">
          <ErrorView error={error} reset={reset} />
        </main>
      </body>
    </html>
  );
}
