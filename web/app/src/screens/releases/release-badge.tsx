import type { Schemas } from '../../api/client.js';

/** Draft, published, or scheduled (published with a date still to come). */
export function ReleaseBadge({ release }: { release: Pick<Schemas['Release'], 'released_at'> }) {
  if (release.released_at === null) return <span class="badge badge-draft">Draft</span>;
  if (new Date(release.released_at).getTime() > Date.now()) return <span class="badge badge-draft">Scheduled</span>;
  return <span class="badge badge-published">Published</span>;
}
