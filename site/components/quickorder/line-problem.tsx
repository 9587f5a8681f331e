import { packsLabel, problemText, type LineProblem } from '@/lib/quick-order';

/** Why a line cannot be added, in the server's words, with the quantities that would
 * fix it as buttons: the nearest whole packs, or what can still be added. */
export function LineProblemText({
  id,
  problem,
  packSize,
  onUnits,
}: {
  id: string;
  problem: LineProblem;
  packSize: number | undefined;
  onUnits: (units: number) => void;
}) {
  const choices = !packSize
    ? []
    : problem.code === 'packs'
      ? (problem.nearest ?? [])
      : (problem.code === 'short' || problem.code === 'over_limit') && problem.available
        ? [problem.available]
        : [];
  return (
    <div className="line-problem" data-problem={problem.code}>
      <p id={id} className="field-error">
        {problemText(problem)}
      </p>
      {packSize && choices.length > 0 && (
        <p className="line-fixes">
          {problem.code === 'packs' ? 'Order ' : 'Order what we can: '}
          {choices.map((units, i) => (
            <span key={units}>
              {i > 0 && ' or '}
              <button type="button" className="link-button" aria-describedby={id} onClick={() => onUnits(units)}>
                {packsLabel(units, packSize)}
              </button>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
