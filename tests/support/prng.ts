// xorshift32 in [0, 1): a fixed seed makes every fuzz failure reproducible (the bench writer's,
// which makes its generated dumps the same from run to run)
export { random as prng } from '../bench/slime-dump-writer.mjs';
