/** What "Run this plan" sends, in Do mode, after a Plan-mode run finished with a plan. */
export const RUN_PLAN_MESSAGE = 'Please carry out the plan above, step by step.';

/** Offered under the last assistant message when a Plan-mode run completed with a plan. */
export function RunPlanButton({ disabled, onRun }: { disabled: boolean; onRun(): void }) {
  return (
    <div className="run-plan" role="group" aria-label="The plan is ready">
      <span className="muted">The plan is ready. Run it in Do mode?</span>
      <button type="button" className="primary" disabled={disabled} onClick={onRun}>
        Run this plan
      </button>
    </div>
  );
}
