/** What a page shows when its data could not be loaded: the sentence and a Try again
 * button that loads it again. */
export function LoadFailed({ what, retry }: { what: string; retry: () => void }) {
  return (
    <p className="form-error" role="alert">
      {what}{' '}
      <button type="button" className="link-button" onClick={retry}>
        Try again
      </button>
    </p>
  );
}
