/**
 * `import 'chunkwise/encodings/o200k_base'`: bundles the o200k_base rank table with your code and
 * registers it, so that o200k_base token units and counts work synchronously from the start
 * in any runtime (a Cloudflare Worker, Vercel Edge, a browser or web worker) without
 * `await loadTokenizer('o200k_base')`. The table is decoded on first use, not on import.
 * Node needs neither: it reads the table from the package on first use.
 * @module
 */
import { setRankTable } from '../../bindings/bpe-ranks.js';
import { rankTableFromStrings } from '../../bindings/bpe-table.js';
import parts from '../../bindings/generated/ranks/o200k_base.js';

setRankTable('o200k_base', () => rankTableFromStrings(parts));
