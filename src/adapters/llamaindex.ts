/**
 * `chunkwise/llamaindex`: {@link ChunkwiseNodeParser}, a LlamaIndex.TS node parser that
 * cuts documents with any chunkwise chunker into `TextNode`s with exact
 * `startCharIdx`/`endCharIdx`. Optional peer dependency: `@llamaindex/core` (what the
 * `llamaindex` package re-exports `TextNode`, `Document` and `NodeParser` from).
 * @module
 */
import { NodeParser } from '@llamaindex/core/node-parser';
import { MetadataMode, NodeRelationship, TextNode, type RelatedNodeInfo } from '@llamaindex/core/schema';
import type { Chunk } from '../engine/chunk.js';
import { InvalidInputError } from '../engine/errors.js';
import type { Chunker } from '../engine/chunker.js';
import { ADAPTER_OPTION_KEYS, chunkFields, chunksOf, contentHasHeadingPath, contentOf, resolveChunker, resolveContent, type ChunkContent, type ChunkerSource, type ChunkwiseAdapterOptions } from './shared.js';
import { rejectUnknownOptions } from '../engine/options/schema.js';

/**
 * Options of {@link ChunkwiseNodeParser}: `strategy` and `content` as `ChunkwiseTextSplitter`
 * takes them (one shape for both adapters), and `idGenerator`.
 */
export interface ChunkwiseNodeParserOptions extends ChunkwiseAdapterOptions {
  /**
   * Node id of a chunk of a document. Default the chunk id, made with the document's
   * `id_` as its document id: unique across documents with distinct ids, and the same
   * for a chunk whose text did not change, so re-ingesting an edited document gives the
   * unchanged chunks their old node ids (LlamaIndex's docstore skips them).
   */
  idGenerator?: (chunk: Chunk, document: TextNode) => string;
}

/** Metadata keys the parser adds that stay out of the text LlamaIndex embeds and shows the LLM. */
const BOOKKEEPING = ['chunkId', 'tokenCount', 'level', 'parentId'];

/**
 * A LlamaIndex.TS `NodeParser` over a chunkwise chunker. `getNodesFromDocuments(docs)`
 * (and the parser used as an ingestion transformation) resolves to `TextNode`s:
 * - `text` is what the chunk embeds, `chunk.embedText ?? chunk.text` (option `content:
 *   'text'`: the exact slice); `startCharIdx`/`endCharIdx` are the UTF-16 offsets of the
 *   chunk's exact text in the document's text (`doc.text.slice(startCharIdx,
 *   endCharIdx)`, equal to `node.text` where the chunk has no embedText or with
 *   `content: 'text'`);
 * - `id_` is the chunk id, made with the document's `id_` as document id;
 * - relationships: SOURCE (the document), PREVIOUS / NEXT (the neighbouring chunk of
 *   the same document and level), and for the parent–child strategy PARENT (a child's
 *   parent node) and CHILD (a parent's children);
 * - metadata: the document's (unless `includeMetadata` is false) plus `chunkId`,
 *   `tokenCount`, and where the strategy has them `headingPath` (absent when empty),
 *   `level`, `parentId`; the bookkeeping keys are excluded from the embed and LLM text,
 *   `headingPath` is not unless the node's text already starts with it (a contextual header).
 *
 * @example
 * ```ts
 * const parser = new ChunkwiseNodeParser(new MarkdownChunker({ chunkSize: 256 }));
 * const nodes = await parser.getNodesFromDocuments([new Document({ text, id_: 'guide.md' })]);
 * ```
 * @throws {InvalidOptionError} at construction for an unknown strategy or bad options.
 */
export class ChunkwiseNodeParser extends NodeParser<Promise<TextNode[]>> {
  /** The chunkwise chunker that cuts. */
  readonly chunker: Chunker;
  /** What a node's text holds (see {@link ChunkwiseNodeParserOptions.content}). */
  readonly content: ChunkContent;
  readonly #idGenerator: (chunk: Chunk, document: TextNode) => string;

  /**
   * @param chunker a chunkwise chunker, or a strategy name with `options.strategy`.
   * @throws {InvalidOptionError} also for an unknown option or a bad `content`.
   */
  constructor(chunker: ChunkerSource, options: ChunkwiseNodeParserOptions = {}) {
    super();
    rejectUnknownOptions<ChunkwiseNodeParserOptions>('ChunkwiseNodeParser', options, { ...ADAPTER_OPTION_KEYS, idGenerator: true });
    this.chunker = resolveChunker(chunker, options.strategy);
    this.content = resolveContent(options.content);
    this.#idGenerator = options.idGenerator ?? ((chunk) => chunk.id);
  }

  protected override async parseNodes(documents: TextNode[]): Promise<TextNode[]> {
    const out: TextNode[] = [];
    for (const document of documents) out.push(...(await this.#nodesOf(document)));
    return out;
  }

  /** The parser builds offsets, metadata and relationships itself (the base class would re-find offsets with `indexOf`). */
  protected override postProcessParsedNodes(nodes: TextNode[]): TextNode[] {
    return nodes;
  }

  async #nodesOf(document: TextNode): Promise<TextNode[]> {
    if (!(document instanceof TextNode)) throw new InvalidInputError('documents must be LlamaIndex Documents (TextNodes)', document);
    const text = document.getContent(MetadataMode.NONE);
    const chunks = await chunksOf(this.chunker, text, `the text of document ${document.id_}`, document.id_);
    const source = document.asRelatedNodeInfo();
    const inherited = this.includeMetadata ? document.metadata : {};
    const nodes = chunks.map((chunk) => {
      const { start, end, ...fields } = chunkFields(chunk);
      const content = contentOf(chunk, this.content);
      const hidden = contentHasHeadingPath(chunk, content) ? [...BOOKKEEPING, 'headingPath'] : BOOKKEEPING;
      const node = new TextNode({
        id_: this.#idGenerator(chunk, document),
        text: content,
        metadata: { ...inherited, ...fields },
        excludedEmbedMetadataKeys: [...new Set([...document.excludedEmbedMetadataKeys, ...hidden])],
        excludedLlmMetadataKeys: [...new Set([...document.excludedLlmMetadataKeys, ...hidden])],
        metadataSeparator: document.metadataSeparator,
        textTemplate: document.textTemplate,
        relationships: { [NodeRelationship.SOURCE]: source },
      });
      // set here: TextNode's constructor drops a startCharIdx of 0 (a truthiness test)
      node.startCharIdx = start;
      node.endCharIdx = end;
      return node;
    });
    const byChunkId = new Map(chunks.map((c, i) => [c.id, nodes[i]]));
    const previous = new Map<unknown, TextNode>();
    const children = new Map<TextNode, RelatedNodeInfo[]>();
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const level = chunks[i].metadata.level;
      const before = previous.get(level);
      if (this.includePrevNextRel && before) {
        node.relationships[NodeRelationship.PREVIOUS] = before.asRelatedNodeInfo();
        before.relationships[NodeRelationship.NEXT] = node.asRelatedNodeInfo();
      }
      previous.set(level, node);
      const parent = typeof chunks[i].metadata.parentId === 'string' ? byChunkId.get(chunks[i].metadata.parentId as string) : undefined;
      if (parent) {
        node.relationships[NodeRelationship.PARENT] = parent.asRelatedNodeInfo();
        const list = children.get(parent) ?? [];
        list.push(node.asRelatedNodeInfo());
        children.set(parent, list);
      }
    }
    for (const [parent, list] of children) parent.relationships[NodeRelationship.CHILD] = list;
    return nodes;
  }
}

export type { ChunkContent, ChunkerSource, ChunkwiseAdapterOptions };
