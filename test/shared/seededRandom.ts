// One seeded pseudo-random generator (mulberry32) for every generative test: the fuzz harness, the
// write-fidelity property test, the batch equivalence test and the editor soak, so a seed printed by
// any of them replays the same case.

/** Numbers in [0, 1), the same sequence for the same seed. */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
