'use client';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ApiError, apiErrorText } from '@/lib/api';
import { applyImport, checkImport, downloadCatalogue, publishStatus, startPublish, uploadPicture, type ImportOutcome } from '@/lib/admin';
import {
  appliedSentence,
  changesNothing,
  decodeImportFile,
  fieldChangeText,
  importFileProblem,
  importSizeProblem,
  kindWord,
  moreProblems,
  pictureProblem,
  productCounts,
  publishSentence,
  PUBLISH_POLL_MS,
  uploadProgress,
  type ImportPlan,
  type ImportProblem,
  type ImportRequest,
  type PublishStatus,
  type UploadedPicture,
} from '@/lib/catalogue-import';
import { formatUkDateTime } from '@/lib/format';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** /admin/catalogue/: import the catalogue from a file (pictures uploaded first, the file
 * checked, the review, then applied), publish it, and export it as the same CSV
 * (docs/back-office.md "Catalogue"). */
export function CatalogueAdmin() {
  return (
    <>
      <h1>Catalogue</h1>
      <ImportSection />
      <PublishSection />
      <ExportSection />
    </>
  );
}

/** Where the import is: what the page shows below the form. */
type View =
  | { kind: 'none' }
  | { kind: 'problems'; problems: ImportProblem[]; count: number }
  | { kind: 'review'; plan: ImportPlan; req: ImportRequest }
  | { kind: 'applied'; plan: ImportPlan };

type Failure = { text: string; again: 'check' | 'apply' | null };

/** A picture chosen, keyed by what makes it the same file. */
const pictureKey = (f: File) => `${f.name}|${f.size}|${f.lastModified}`;

/** Moves focus to a heading once it is drawn (after a check, an apply). */
function useFocusOn(ref: RefObject<HTMLElement | null>, when: unknown) {
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [ref, when]);
}

function ImportSection() {
  const [products, setProducts] = useState<File | null>(null);
  const [categories, setCategories] = useState<File | null>(null);
  const [pictures, setPictures] = useState<File[]>([]);
  const [full, setFull] = useState(false);
  const [busy, setBusy] = useState<'' | 'uploading' | 'checking' | 'applying'>('');
  const [progress, setProgress] = useState('');
  const [fileProblem, setFileProblem] = useState('');
  const [pictureFailures, setPictureFailures] = useState<{ name: string; text: string }[]>([]);
  const [view, setView] = useState<View>({ kind: 'none' });
  const [failure, setFailure] = useState<Failure | null>(null);
  // Pictures published already, so checking again does not upload them again.
  const uploaded = useRef(new Map<string, UploadedPicture>());
  const outcomeHeading = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState(0); // moves on with each outcome: focus its heading
  useFocusOn(outcomeHeading, shown);

  /** A file input changed: what was checked is not what is chosen now. */
  function chosen() {
    setView({ kind: 'none' });
    setFailure(null);
    setFileProblem('');
    setPictureFailures([]);
  }

  function show(v: View) {
    setView(v);
    setShown((n) => n + 1);
  }

  function outcome(o: ImportOutcome, req: ImportRequest, applied: boolean) {
    if ('problems' in o) show({ kind: 'problems', problems: o.problems, count: o.count });
    else show(applied ? { kind: 'applied', plan: o.plan } : { kind: 'review', plan: o.plan, req });
  }

  async function check(e?: FormEvent) {
    e?.preventDefault();
    if (busy) return;
    setFailure(null);
    setView({ kind: 'none' });
    const problem = !products ? 'Choose the products file.' : (importFileProblem(products) ?? (categories && importFileProblem(categories)));
    if (problem) {
      setFileProblem(problem);
      return;
    }
    setFileProblem('');
    try {
      // Each picture first, one at a time: the check looks the image cells up among them.
      const failures: { name: string; text: string }[] = [];
      const images: ImportRequest['images'] = {};
      setBusy('uploading');
      for (const [i, f] of pictures.entries()) {
        setProgress(uploadProgress(i, pictures.length));
        const refused = pictureProblem(f);
        if (refused) {
          failures.push({ name: f.name, text: refused });
          continue;
        }
        try {
          let pic = uploaded.current.get(pictureKey(f));
          if (!pic) {
            pic = await uploadPicture(f);
            uploaded.current.set(pictureKey(f), pic);
          }
          images[f.name] = { small: pic.small, large: pic.large };
        } catch (err) {
          failures.push({ name: f.name, text: apiErrorText(err, `${f.name} could not be uploaded; check the connection and try again.`) });
        }
      }
      setPictureFailures(failures);
      setBusy('checking');
      setProgress('Checking the file…');
      const req: ImportRequest = { products: await readFile(products!), full, images };
      if (categories) req.categories = await readFile(categories);
      const tooBig = importSizeProblem(req);
      if (tooBig) {
        setFileProblem(tooBig);
        return;
      }
      outcome(await checkImport(req), req, false);
    } catch (err) {
      if (err instanceof FileProblem) setFileProblem(err.message);
      else setFailure({ text: apiErrorText(err, 'The file could not be checked.'), again: err instanceof ApiError && err.status < 500 ? null : 'check' });
    } finally {
      setBusy('');
      setProgress('');
    }
  }

  async function apply() {
    if (busy || view.kind !== 'review') return;
    const { req, plan } = view;
    setBusy('applying');
    setProgress('Applying the import…');
    setFailure(null);
    try {
      outcome(await applyImport(req, plan.job), req, true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // The file changed since the check, or another import holds the lock.
        setFailure({ text: err.message, again: /check it again/i.test(err.message) ? 'check' : 'apply' });
      } else {
        setFailure({ text: apiErrorText(err, 'The import could not be applied.'), again: err instanceof ApiError && err.status < 500 ? null : 'apply' });
      }
    } finally {
      setBusy('');
      setProgress('');
    }
  }

  return (
    <section className="admin-actions" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <p>
        A products file (CSV with a header row, or JSON lines; docs/catalogue-import.md lists the columns), and if you like a ranges and categories file and the
        pictures its image column names. Nothing is written until you have seen what the file changes and pressed Apply import. Files of up to 5 MB together; a
        bigger catalogue is imported with scripts/catalogue import.
      </p>
      <form className="form admin-form" onSubmit={check} noValidate aria-label="Import the catalogue">
        <div className="field">
          <label htmlFor="import-products">Products file (.csv or .jsonl)</label>
          <input
            id="import-products"
            type="file"
            accept=".csv,.jsonl,.ndjson,.json,text/csv"
            onChange={(e) => {
              setProducts(e.target.files?.[0] ?? null);
              chosen();
            }}
            aria-invalid={fileProblem ? true : undefined}
            aria-describedby={fileProblem ? 'import-file-problem' : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="import-categories">Ranges and categories file (optional)</label>
          <input
            id="import-categories"
            type="file"
            accept=".csv,.jsonl,.ndjson,.json,text/csv"
            onChange={(e) => {
              setCategories(e.target.files?.[0] ?? null);
              chosen();
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="import-pictures">Pictures (JPEG, PNG or WebP; optional)</label>
          <p id="import-pictures-hint" className="muted" style={{ margin: 0 }}>
            Choose every picture the image column names, by file name; each at most 4 MB.
          </p>
          <input
            id="import-pictures"
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp"
            aria-describedby="import-pictures-hint"
            onChange={(e) => {
              setPictures(Array.from(e.target.files ?? []));
              chosen();
            }}
          />
        </div>
        <div className="field">
          <div className="check">
            <input
              id="import-full"
              type="checkbox"
              checked={full}
              onChange={(e) => {
                setFull(e.target.checked);
                chosen();
              }}
              aria-describedby="import-full-warning"
            />
            <label htmlFor="import-full">This file is the whole catalogue: discontinue products that are not in it</label>
          </div>
          <p id="import-full-warning" className={full ? 'form-error' : 'muted'} style={{ margin: '0.25rem 0 0' }}>
            Warning: with this ticked, every product missing from the file is discontinued. It leaves the shop&apos;s pages, search and baskets; orders already
            placed keep it.
          </p>
        </div>
        {fileProblem && (
          <p id="import-file-problem" className="form-error" role="alert">
            {fileProblem}
          </p>
        )}
        <button type="submit" className="button" aria-disabled={busy !== ''} aria-busy={busy === 'uploading' || busy === 'checking'}>
          {busy === 'uploading' || busy === 'checking' ? 'Checking…' : 'Check file'}
        </button>
        <p role="status" className="muted">
          {progress}
        </p>
      </form>

      {pictureFailures.length > 0 && (
        <div className="form-error" role="alert">
          <p>
            {pictureFailures.length === 1 ? 'A picture was' : `${pictureFailures.length} pictures were`} not uploaded; rows naming{' '}
            {pictureFailures.length === 1 ? 'it' : 'them'} cannot be imported until it is fixed:
          </p>
          <ul>
            {pictureFailures.map((f) => (
              <li key={f.name}>{f.text}</li>
            ))}
          </ul>
        </div>
      )}

      {failure && (
        <p className="form-error" role="alert">
          {failure.text}{' '}
          {failure.again && (
            <button type="button" className="link-button" onClick={() => void (failure.again === 'check' ? check() : apply())}>
              {failure.again === 'check' ? 'Check again' : 'Apply again'}
            </button>
          )}
        </p>
      )}

      {view.kind === 'problems' && <Problems heading={outcomeHeading} problems={view.problems} count={view.count} />}
      {view.kind === 'review' && <Review heading={outcomeHeading} plan={view.plan} busy={busy === 'applying'} apply={() => void apply()} />}
      {view.kind === 'applied' && (
        <>
          <h3 ref={outcomeHeading} tabIndex={-1}>
            Import applied
          </h3>
          <p className="form-ok" role="status">
            {appliedSentence(view.plan)}
          </p>
          <p>The basket, checkout and search have it now; publish the catalogue (below) for the catalogue pages.</p>
        </>
      )}
    </section>
  );
}

/** A chosen file that cannot be sent, said before anything is. */
class FileProblem extends Error {}

async function readFile(f: File): Promise<{ name: string; text: string }> {
  const got = decodeImportFile(f.name, new Uint8Array(await f.arrayBuffer()));
  if ('problem' in got) throw new FileProblem(got.problem);
  return { name: f.name, text: got.text };
}

function Problems({ heading, problems, count }: { heading: RefObject<HTMLHeadingElement | null>; problems: ImportProblem[]; count: number }) {
  const more = moreProblems(count, problems.length);
  return (
    <>
      <h3 ref={heading} tabIndex={-1}>
        {count === 1 ? 'The file has a problem' : `The file has ${count.toLocaleString('en-GB')} problems`}
      </h3>
      <p className="form-error" role="alert">
        Nothing was written. Put {count === 1 ? 'it' : 'them'} right in the file and check it again.
      </p>
      <table className="basket-table admin-table">
        <caption className="sr-only">Problems of the file, by file and line</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Line</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={i}>
              <td data-label="File">{p.file ?? ''}</td>
              <td data-label="Line">{p.line > 0 ? p.line : 'whole file'}</td>
              <td data-label="Column">{p.column ?? ''}</td>
              <td data-label="Problem">{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && <p>{more}</p>}
    </>
  );
}

function Review({ heading, plan, busy, apply }: { heading: RefObject<HTMLHeadingElement | null>; plan: ImportPlan; busy: boolean; apply: () => void }) {
  const nothing = changesNothing(plan);
  const changes = plan.new + plan.changed + plan.discontinued;
  const structure = plan.new_ranges + plan.changed_ranges + plan.new_categories + plan.changed_categories > 0;
  return (
    <>
      <h3 ref={heading} tabIndex={-1}>
        Review: {plan.rows.toLocaleString('en-GB')} {plan.rows === 1 ? 'row' : 'rows'}, nothing written yet
      </h3>
      <p role="status">{nothing ? 'Nothing to change: the file matches the catalogue.' : `The import would make ${productCounts(plan)}.`}</p>
      <dl className="admin-facts import-counts">
        <div>
          <dt>New</dt>
          <dd>{plan.new.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Changed</dt>
          <dd>{plan.changed.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Discontinued</dt>
          <dd>{plan.discontinued.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Unchanged</dt>
          <dd>{plan.unchanged.toLocaleString('en-GB')}</dd>
        </div>
        {structure && (
          <>
            <div>
              <dt>Ranges</dt>
              <dd>
                {plan.new_ranges} new, {plan.changed_ranges} changed
              </dd>
            </div>
            <div>
              <dt>Categories</dt>
              <dd>
                {plan.new_categories} new, {plan.changed_categories} changed
              </dd>
            </div>
          </>
        )}
      </dl>
      {plan.full && plan.discontinued > 0 && (
        <p className="form-error">
          This file is the whole catalogue: {plan.discontinued.toLocaleString('en-GB')} {plan.discontinued === 1 ? 'product is' : 'products are'} not in it and
          will be discontinued.
        </p>
      )}
      {plan.first.length > 0 && (
        <table className="basket-table admin-table">
          <caption>{plan.first.length < changes ? `The first ${plan.first.length} of ${changes.toLocaleString('en-GB')} changes` : 'The changes'}</caption>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col">Name</th>
              <th scope="col">Change</th>
              <th scope="col">Fields (before → after)</th>
            </tr>
          </thead>
          <tbody>
            {plan.first.map((c) => (
              <tr key={c.sku}>
                <th scope="row">{c.sku}</th>
                <td data-label="Name">
                  {c.name}
                  {c.line ? <span className="muted admin-sub">line {c.line}</span> : null}
                </td>
                <td data-label="Change">{kindWord(c.kind)}</td>
                <td data-label="Fields">
                  {c.fields?.length ? (
                    <ul className="import-fields">
                      {c.fields.map((f) => (
                        <li key={f.field}>{fieldChangeText(f)}</li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!nothing && (
        <p>
          <button type="button" className="button" onClick={apply} aria-disabled={busy} aria-busy={busy}>
            {busy ? 'Applying…' : 'Apply import'}
          </button>
        </p>
      )}
    </>
  );
}

/** Publishing the catalogue: the release that rebuilds the catalogue pages, where this
 * stack can run it (the local edge); elsewhere the API says who can (501). */
function PublishSection() {
  const [status, setStatus] = useState<PublishStatus | null>(null);
  const [unavailable, setUnavailable] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [poll, setPoll] = useState(0);
  const running = status?.state === 'running';

  // The state now, and again every PUBLISH_POLL_MS while a publish runs.
  useEffect(() => {
    const ctl = new AbortController();
    const timer = setTimeout(
      () => {
        publishStatus(ctl.signal)
          .then((s) => {
            setStatus(s);
            setError('');
            if (s.state === 'running') setPoll((n) => n + 1);
          })
          .catch((err: unknown) => {
            if (ctl.signal.aborted) return;
            if (err instanceof ApiError && (err.status === 501 || err.status === 404)) setUnavailable(notHere(err));
            else {
              setError(apiErrorText(err, 'How the publish is going could not be read.'));
              if (running) setPoll((n) => n + 1); // keep asking: a blip is not the end of a build
            }
          });
      },
      poll === 0 ? 0 : PUBLISH_POLL_MS,
    );
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [poll, running]);

  async function publish() {
    if (busy || running) return;
    setBusy(true);
    setError('');
    try {
      const s = await startPublish();
      setStatus(s);
      setPoll((n) => n + 1);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 501 || err.status === 404)) setUnavailable(notHere(err));
      else setError(apiErrorText(err, 'The publish could not be started.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-actions" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish</h2>
      {unavailable ? (
        <p className="form-error" role="alert">
          {unavailable}
        </p>
      ) : (
        <>
          <p role="status" className={status?.state === 'done' ? 'form-ok' : status?.state === 'failed' ? 'form-error' : undefined}>
            {status ? publishSentence(status) : 'Reading how the last publish went…'}
          </p>
          {status?.started_at && (
            <p className="muted">
              {status.state === 'running' ? 'Started' : 'Last publish started'} {formatUkDateTime(status.started_at)}
              {status.by ? ` by ${status.by}` : ''}
              {status.finished_at ? `, finished ${formatUkDateTime(status.finished_at)}` : ''}.
            </p>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <p>
            <button type="button" className="button" onClick={() => void publish()} aria-disabled={busy || running} aria-busy={running}>
              {running ? 'Publishing…' : 'Publish catalogue'}
            </button>
          </p>
          {status?.log && status.log.length > 0 && (
            <details open={status.state === 'failed'}>
              <summary>The build&apos;s last lines</summary>
              <pre className="publish-log">{status.log.join('\n')}</pre>
            </details>
          )}
        </>
      )}
    </section>
  );
}

/** The sentence of a stack that cannot publish (its 501), or of an API without the route. */
function notHere(err: ApiError): string {
  return err.status === 501 && err.message
    ? err.message
    : 'Publishing from the back office is not available here: ask a release engineer to run scripts/release.';
}

function ExportSection() {
  const { busy, outcome, submit } = useAdminSubmit();
  const download = (file: 'products' | 'categories') =>
    void submit(async () => `${await downloadCatalogue(file)} is downloaded.`, 'The export could not be prepared.');
  return (
    <section className="admin-actions" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <p>The catalogue as the import&apos;s own CSV (every product, discontinued ones too): change it in a spreadsheet and import it again.</p>
      <FormOutcome outcome={outcome} />
      <p className="import-downloads">
        <button type="button" className="button" onClick={() => download('products')} aria-disabled={busy}>
          Download products CSV
        </button>{' '}
        <button type="button" className="button" onClick={() => download('categories')} aria-disabled={busy}>
          Download ranges and categories CSV
        </button>
      </p>
    </section>
  );
}
