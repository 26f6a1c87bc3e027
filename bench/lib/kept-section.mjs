// A section of bench/RESULTS.md written by a script other than run.mjs (bench/modern-calls.mjs), between
// markers, so that run.mjs can keep it when it rewrites the file.

export const BEGIN = '<!-- modern-calls:begin -->';
export const END = '<!-- modern-calls:end -->';

/** The marked section of `text`, markers included, or '' when it has none. */
export function keptSection(text) {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return start === -1 || end === -1 ? '' : text.slice(start, end + END.length);
}

/** `text` with its marked section replaced by `section` (markers included), or `section` appended. */
export function withSection(text, section) {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (section === '') return text;
  if (start === -1 || end === -1) return `${text.trimEnd()}\n\n${section}\n`;
  return `${text.slice(0, start)}${section}${text.slice(end + END.length)}`;
}
