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

// Each strategy's entry lives in its own file; this list is the registration order
// (the CLI's, the docs' and the web page's order of strategies).
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
