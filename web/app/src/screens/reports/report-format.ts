// How the Reports screen writes its figures: spans as a person says them ("1 h 12 min"), shares as
// percentages, and "No data" for a figure of nothing (a median of no responses is not 0 s).

export const NO_DATA = 'No data';

/** "45 s", "12 min", "1 h 12 min", "2 d 3 h" (to the nearest minute from a minute up); "No data" for null. */
export function spanText(seconds: number | null): string {
  if (seconds === null) return NO_DATA;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A share 0–1 as a whole percentage ("93%"); "No data" for null. */
export const shareText = (share: number | null): string => (share === null ? NO_DATA : `${Math.round(share * 100)}%`);

export const countText = (count: number | null): string => (count === null ? NO_DATA : count.toLocaleString('en'));
