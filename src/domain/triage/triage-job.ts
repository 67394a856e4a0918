// The automatic triage run (docs/triage.md, "When it runs"): a conversation job the contact's first
// message asks for, run by the conversation job runner like the summary. The job ends in the
// transaction of the run's effect, so a run whose lease is gone writes nothing and a crash between
// the two leaves the job to run again (a conversation that already has suggestions is not triaged twice).
import type { ClaimedConversationJob } from '../../db/repositories/conversation-job.repository.js';
import type { ConversationJobQueue } from '../conversations/conversation-jobs.js';
import type { TriageService } from './triage.service.js';

/**
 * A triage job is due this long after the summary's debounce: the summary (the extractive one takes
 * milliseconds) is then there to be a create suggestion's description. A slower chat model may miss
 * it; the draft's description can be written on accept.
 */
export const TRIAGE_AFTER_SUMMARY_MS = 1_000;

export interface TriageJobDeps {
  jobs: Pick<ConversationJobQueue, 'finish'>;
  triage: Pick<TriageService, 'runTriage'>;
}

export function createTriageJob({ jobs, triage }: TriageJobDeps) {
  return {
    async run(job: ClaimedConversationJob): Promise<void> {
      await triage.runTriage(job.workspace_id, job.conversation_id, (work) => jobs.finish(work, job));
    },
  };
}
