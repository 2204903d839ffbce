// A failure as the person reads it: what happened, and on its own muted line the fix.
import type { Problem } from "./api";

export function ProblemText({ problem }: { problem: Problem }) {
  if (typeof problem === "string") return <span class="problem">{problem}</span>;
  return (
    <span class="problem" data-kind={problem.kind}>
      {problem.message}
      {problem.hint && <span class="fix">Fix: {problem.hint}</span>}
    </span>
  );
}
