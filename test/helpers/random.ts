/** mulberry32: a small seeded PRNG, uniform in [0, 1), for fixed test data (the one in src/engine/random.ts). */
export { mulberry32 as rng } from '../../src/engine/random.js';
