/**
 * Retrieval-quality evaluation (SPEC section 5): metrics, questions, retrieval,
 * running and reporting. Core: no Node built-ins.
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
