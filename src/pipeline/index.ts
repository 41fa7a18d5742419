/**
 * The library pipeline: {@link pipeline} (documents → chunks → vectors → a sink, synced
 * per document), the in-memory sink and embedder identities it works with.
 * @module
 */
export { pipeline, type PipelineDocument, type PipelineOptions, type PipelineProgress, type PipelineSummary, type EmbeddedBatch } from './pipeline.js';
export { MemorySink } from '../sinks/memory.js';
export { incrementalSink, type IncrementalSink, type IncrementalRow } from '../sinks/incremental.js';
export { embedderIdentity } from '../embedders/identity.js';
