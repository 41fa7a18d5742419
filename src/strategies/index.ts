/**
 * The built-in strategies, registered in this order (the CLI's, the docs' and the web
 * page's order of strategies), and the registry they are registered in
 * (`../engine/registry.ts`): import the registry from here to have them.
 * @module
 */
import { registerStrategy } from '../engine/registry.js';
import { SlidingWindowChunker } from './sliding-window/sliding-window.js';
import { FixedSizeChunker } from './fixed-size/fixed-size.js';
import { SentenceChunker } from './sentence/sentence.js';
import { RecursiveChunker } from './recursive/recursive.js';
import { MarkdownChunker } from './markdown/markdown.js';
import { HtmlChunker } from './html/html.js';
import { ParentChildChunker } from './parent-child/parent-child.js';
import { SemanticChunker } from './semantic/semantic.js';
import { LazyCodeChunker } from './code/schema.js';
import { ClusterSemanticChunker } from './cluster-semantic/cluster-semantic.js';
import { LateChunker } from './late/late.js';

export * from '../engine/registry.js';

// Each strategy's entry is its class's `definition` (a `defineStrategy` definition in its
// own folder); this list is the registration order (the CLI's, the docs' and the web
// page's order of strategies).
//
// QASC (`./qasc/qasc.ts`, `QueryAdaptiveChunker.definition`) is a definition too but is
// not in this list: it is query-time. Its `chunk(text)` needs a question (the `query`
// option) and returns only what is relevant to it, ranked, so it does not meet what the
// registry promises of a built-in: `createChunker(name)` with no options chunks every
// text, every non-whitespace character in some chunk, chunks in text order with `unit`
// sizes (QASC counts sentences, overlap 'none'). Listing it here would offer it to
// `--strategy`, `--strategy auto`, the demo, the web page, the golden and scaling suites
// and file chunking, which all chunk without a question; the CLI runs it as its own
// command (`chunkwise qasc --query`) and the conformance suite checks it through its
// definition, every invariant but "nothing lost".
for (const definition of [
  SlidingWindowChunker.definition,
  FixedSizeChunker.definition,
  SentenceChunker.definition,
  RecursiveChunker.definition,
  MarkdownChunker.definition,
  HtmlChunker.definition,
  ParentChildChunker.definition,
  SemanticChunker.definition,
  LazyCodeChunker.definition,
  ClusterSemanticChunker.definition,
  LateChunker.definition,
]) {
  registerStrategy(definition);
}
