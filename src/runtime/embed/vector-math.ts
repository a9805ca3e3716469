/** Scales `v` to unit length in place (a zero vector stays zero); returns it. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** Dot product of `a` with the `dimension` floats of `b` starting at `offset`. */
export function dot(a: Float32Array, b: Float32Array, offset = 0): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[offset + i]!;
  return sum;
}
