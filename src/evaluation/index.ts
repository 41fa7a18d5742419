/**
 * `chunkwise/evaluation`: retrieval-quality evaluation (token-level, Chroma's method): metrics,
 * questions, retrieval, running and reporting; and the QASC index for hybrid retrieval
 * over many documents. Core: no Node built-ins.
 * @module
 */
export * from './metrics.js';
export * from './questions.js';
export * from './retrieval.js';
export * from './evaluate.js';
export * from './strategy-spec.js';
export * from './report.js';
export * from './qasc-retriever.js';
export * from './bootstrap.js';
export { QASC_CANDIDATES_PER_RESULT, QascIndex, type QascIndexOptions, type QascResult } from '../strategies/qasc/qasc-index.js';
export * from './evaluate-spec.js';
export * from './tune.js';
export * from './tune-report.js';
export * from './question-generation.js';
