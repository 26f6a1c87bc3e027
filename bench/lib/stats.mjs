// Order statistics for the bench. Every figure the report quotes is a median or a percentile of many
// samples, never one measurement; ratios are taken between medians of the same run.

/** The q-quantile (0..1) of `values` by nearest rank; NaN for no values. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** The median of `values`. */
export const median = (values) => quantile(values, 0.5);

/** `a / b` rounded to two decimals, or null when either is missing. */
export function ratio(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return Math.round((a / b) * 100) / 100;
}

/** Rounds to `digits` decimals (for the JSON file). */
export const round = (value, digits = 1) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : null;

/** Microseconds since `start` (a `performance.now()` reading). */
export const usSince = (start) => (performance.now() - start) * 1000;

/** Rotates `list` by `n` places, so round-robin rounds start with a different client each time. */
export const rotate = (list, n) => list.map((_, i) => list[(i + n) % list.length]);
