// A section of bench/RESULTS.md written by a script other than run.mjs (bench/modern-calls.mjs; the gateway
// section from bench/gateway.mjs figures), between markers, so that run.mjs can keep it when it rewrites the file.

export const BEGIN = '<!-- modern-calls:begin -->';
export const END = '<!-- modern-calls:end -->';
/** The gateway section's markers. */
export const GATEWAY = ['<!-- gateway:begin -->', '<!-- gateway:end -->'];

/** The marked section of `text`, markers included, or '' when it has none. */
export function keptSection(text, [begin, finish] = [BEGIN, END]) {
  const start = text.indexOf(begin);
  const end = text.indexOf(finish);
  return start === -1 || end === -1 ? '' : text.slice(start, end + finish.length);
}

/** `text` with its marked section replaced by `section` (markers included), or `section` appended. */
export function withSection(text, section, [begin, finish] = [BEGIN, END]) {
  const start = text.indexOf(begin);
  const end = text.indexOf(finish);
  if (section === '') return text;
  if (start === -1 || end === -1) return `${text.trimEnd()}\n\n${section}\n`;
  return `${text.slice(0, start)}${section}${text.slice(end + finish.length)}`;
}
