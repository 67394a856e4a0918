// The figures of a duration (docs/reports.md, "Medians and percentiles"): count, median, 90th
// percentile and average, exact over the measured rows. A percentile is the nearest rank: the p-th
// percentile of n values in ascending order is the value at rank ⌈p·n/100⌉ (1-based), always a value
// that was measured; so the median of an even count is the lower of the two middle values.

export interface Distribution {
  count: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  average_seconds: number | null;
}

export const EMPTY_DISTRIBUTION: Distribution = Object.freeze({ count: 0, median_seconds: null, p90_seconds: null, average_seconds: null });

/** The 1-based nearest rank of the `percent`-th percentile among `count` values (count ≥ 1), in integers only. */
export const nearestRank = (percent: number, count: number): number => Math.max(1, Math.ceil((percent * count) / 100));

/** An average to the millisecond: whole seconds summed, divided. */
const averageOf = (total: number, count: number) => Math.round((total / count) * 1000) / 1000;

/** The distribution of measured values as the database summed them (median and p90: dialect.medianAndP90); none measured: empty. */
export function distributionOf(values: { measured: number; total: number; median: number | null; p90: number | null } | undefined): Distribution {
  if (!values || values.measured === 0) return EMPTY_DISTRIBUTION;
  return { count: values.measured, median_seconds: values.median!, p90_seconds: values.p90!, average_seconds: averageOf(values.total, values.measured) };
}

/** The distribution of values in memory. */
export function distributionOfValues(values: readonly number[]): Distribution {
  if (values.length === 0) return EMPTY_DISTRIBUTION;
  const sorted = [...values].sort((x, y) => x - y);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length, median_seconds: sorted[nearestRank(50, sorted.length) - 1]!, p90_seconds: sorted[nearestRank(90, sorted.length) - 1]!,
    average_seconds: averageOf(total, sorted.length),
  };
}
