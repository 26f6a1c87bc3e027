// The sections of bench/RESULTS.md that a script writes on its own, without rewriting the whole report: each
// between a pair of markers (HTML comments, invisible in the rendered page), so that the script can replace
// its section alone and run.mjs can keep the ones renderReport does not write. The markers are part of the
// committed RESULTS.md: change one here and there together.

/** bench/modern-calls.mjs's section (MCP 2026-07-28 tools/call, direct path against the SDK funnel). */
export const MODERN_CALLS = ['<!-- modern-calls:begin -->', '<!-- modern-calls:end -->'];
/** The gateway section (bench/gateway.mjs's figures). */
export const GATEWAY = ['<!-- gateway:begin -->', '<!-- gateway:end -->'];
/** Workload 9's section (report-era2026.mjs; `node bench/run.mjs --only=9` rewrites it alone). */
export const ERA2026 = [
  '<!-- workload 9: start (node bench/run.mjs --only=9 rewrites this section) -->',
  '<!-- workload 9: end -->',
];
/** Workload 12's section (bench/workloads/scale-out.mjs --merge rewrites it alone). */
export const SCALE_OUT = ['<!-- workload 12: begin -->', '<!-- workload 12: end -->'];

/** Where the section marked by `[begin, finish]` stands in `text` (`[start, end]`), or undefined. */
function locate(text, [begin, finish]) {
  const start = text.indexOf(begin);
  const end = text.indexOf(finish);
  return start === -1 || end < start ? undefined : [start, end + finish.length];
}

/** The section of `text` marked by `markers`, markers included, or '' when it has none. */
export function keptSection(text, markers) {
  const at = locate(text, markers);
  return at === undefined ? '' : text.slice(...at);
}

/**
 * `text` with its section marked by `markers` replaced by `section` (which carries the markers itself), or
 * `section` appended at the end when `text` has none; `text` as it is when `section` is '' (nothing to keep).
 */
export function withSection(text, section, markers) {
  if (section === '') return text;
  const at = locate(text, markers);
  if (at === undefined) return `${text.trimEnd()}\n\n${section}\n`;
  return `${text.slice(0, at[0])}${section}${text.slice(at[1])}`;
}

/**
 * `text` with the section under the heading that starts with `headingStart` (e.g. `'## 13. '`) replaced by
 * `section` (heading included), or `section` appended at the end when `text` has no such heading. The section
 * ends at the next `## ` heading or at the next marked section's first marker, whichever comes first.
 */
export function withHeadedSection(text, headingStart, section) {
  const start = text.indexOf(`\n${headingStart}`);
  if (start === -1) return `${text.trimEnd()}\n\n${section}\n`;
  const ends = ['\n## ', '\n<!-- '].map((mark) => text.indexOf(mark, start + 1)).filter((at) => at !== -1);
  const rest = ends.length === 0 ? '' : text.slice(Math.min(...ends));
  return `${text.slice(0, start + 1)}${section}\n${rest}`;
}
