import type { Outcome } from './use-admin-submit';

/** What a back-office write came to: done as a status line; a 409 with the server's
 * sentence and Reload (the page reads the thing again; without reload, the sentence alone,
 * as for a new coupon's taken code); any other failure with Try again where sending it
 * again can help. */
export function FormOutcome({ outcome, reload }: { outcome: Outcome; reload?: () => void }) {
  if (!outcome) return null;
  if (outcome.kind === 'done') {
    return (
      <p className="form-ok" role="status">
        {outcome.text}
      </p>
    );
  }
  return (
    <p className="form-error" role="alert">
      {outcome.text}{' '}
      {outcome.kind === 'conflict' && reload && (
        <button type="button" className="link-button" onClick={reload}>
          Reload
        </button>
      )}
      {outcome.kind === 'failed' && outcome.retry && (
        <button type="button" className="link-button" onClick={outcome.retry}>
          Try again
        </button>
      )}
    </p>
  );
}
