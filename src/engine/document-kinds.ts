/**
 * Which files are documents (`.pdf`, `.docx`) rather than text, and the strategy
 * `--strategy auto` gives each: the file name's extension decides. Core module: no Node
 * built-in (the per-file picker of the library's pipeline uses it too).
 * @module
 */

/** The extension of a path or file name, lower case with its dot (`''` when it has none). */
export function extensionOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** The strategy `--strategy auto` picks for each document extension: the PDF's extracted text by recursive, the Word file's HTML by html. */
export const DOCUMENT_STRATEGIES: Readonly<Record<string, string>> = { '.pdf': 'recursive', '.docx': 'html' };

/** The document extensions a directory walk with `--strategy auto` picks. */
export const DOCUMENT_EXTENSIONS: readonly string[] = Object.keys(DOCUMENT_STRATEGIES);

/** The document kind of a file name by its extension (case-insensitive), or undefined for a text file or stdin (`-`). */
export function documentKind(name: string): '.pdf' | '.docx' | undefined {
  if (name === '-') return undefined;
  const ext = extensionOf(name);
  return ext === '.pdf' || ext === '.docx' ? ext : undefined;
}
