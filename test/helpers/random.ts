/** A seeded generator of numbers in [0, 1) (a linear congruential one), so a generated test is the same on every run. */
export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}
