/**
 * `import 'chunkwise/encodings/cl100k_base'`: bundles the cl100k_base rank table with your code and
 * registers it, so that cl100k_base token units and counts work synchronously from the start
 * in any runtime (a Cloudflare Worker, Vercel Edge, a browser or web worker) without
 * `await loadTokenizer('cl100k_base')`. The table is decoded on first use, not on import.
 * Node needs neither: it reads the table from the package on first use.
 * @module
 */
import { setRankTable } from '../../bindings/bpe-ranks.js';
import { rankTableFromStrings } from '../../bindings/bpe-table.js';
import parts from '../../bindings/generated/ranks/cl100k_base.js';

setRankTable('cl100k_base', () => rankTableFromStrings(parts));
