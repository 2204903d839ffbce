// A long job's progress (a PDF's pages rendering, a LibreOffice conversion) as a bar: what is
// working, done/total in its unit, and the time left. Shared by the agent's tool row and the
// script catalogue's run; each new job line replaces the one before.
import type { JobProgressNotice } from "./bindings";

export function JobBar(props: { job: JobProgressNotice }) {
  const { job } = props;
  const label = `${job.done}/${job.total} ${job.units}`;
  return (
    <div class="job-bar" data-job={job.job} data-done={job.done} data-total={job.total} title={job.job}>
      <progress value={job.done} max={Math.max(job.total, 1)} aria-label={`${job.job}: ${label}`} />
      <span class="job-name">{job.job}</span>
      <span class="job-count">{label}</span>
      {job.left && <span class="job-left">{job.left}</span>}
    </div>
  );
}
