/**
 * What kind of document bytes are ({@link documentKindOf}), without loading them: the
 * pipeline and the CLI choose a strategy by it before the loader runs. Core module: no
 * Node built-in, no loader imported.
 * @module
 */

/** What a document is, as the loader reads it. */
export type DocumentKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'text';

const BY_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  '.pdf': 'pdf', '.docx': 'docx', '.html': 'html', '.htm': 'html', '.xhtml': 'html', '.md': 'markdown', '.markdown': 'markdown', '.mdx': 'markdown', '.txt': 'text',
};

/** The extensions the loader knows (lower case, with their dot): the kind of a file of any other is sniffed. */
export const DOCUMENT_FILE_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);

/**
 * The kind of a document: PDF or Word by their magic bytes, whatever the name (`%PDF-`; a
 * zip whose first entry is a Word part, `[Content_Types].xml` or `word/`: only the first
 * 4 KB are read); else by the extension of `source` where it is one the loader knows;
 * else HTML when it starts with `<!doctype html` or `<html`; else `text`.
 */
export function documentKindOf(source: string, bytes: Uint8Array): DocumentKind {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
    if (head.includes('[Content_Types].xml') || head.includes('word/')) return 'docx';
  }
  const base = source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1).split(/[?#]/)[0];
  const dot = base.lastIndexOf('.');
  const byName = dot > 0 ? BY_EXTENSION[base.slice(dot).toLowerCase()] : undefined;
  if (byName) return byName;
  const start = new TextDecoder('utf-8').decode(bytes.subarray(0, 512)).replace(/^\ufeff?\s*/, '').slice(0, 15).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'text';
}

/** The document extension (`.pdf`, `.docx`) that `auto` picks a strategy by, for a PDF or Word kind; undefined for the others. */
export function documentExtensionOf(kind: DocumentKind): '.pdf' | '.docx' | undefined {
  return kind === 'pdf' ? '.pdf' : kind === 'docx' ? '.docx' : undefined;
}
