/**
 * How vectors are stored: float16, little-endian, one after another. Half the bytes of float32
 * (LMDB pages hold twice as many), and for unit vectors a cosine error around 1e-4, far below what
 * changes a ranking. Vectors are rounded to float16 as soon as they are made, so the index, the
 * vector cache and the HNSW graph all hold exactly the same values.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float16 bits of `x` (round to nearest; subnormals kept; overflow to infinity). */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 112; // rebias 127 -> 15
  const mantissa = bits & 0x7fffff;
  if (((bits >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // NaN, infinity
  if (exponent >= 31) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const m = (mantissa | 0x800000) >> (1 - exponent);
    return sign | ((m + 0x1000) >> 13);
  }
  // A carry out of the mantissa correctly moves to the exponent.
  return (sign | (exponent << 10) | (mantissa >> 13)) + ((mantissa >> 12) & 1);
}

/** The number float16 bits `h` stand for. */
export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** `v` rounded to float16 values, in place; returns it. */
export function roundToHalf(v: Float32Array): Float32Array {
  for (let i = 0; i < v.length; i++) v[i] = fromHalf(toHalf(v[i]!));
  return v;
}

/** Vectors (all of one dimension) as stored bytes. */
export function encodeVectors(vectors: readonly Float32Array[]): Buffer {
  const dimension = vectors[0]?.length ?? 0;
  const out = Buffer.alloc(vectors.length * dimension * 2);
  vectors.forEach((v, i) => {
    for (let d = 0; d < dimension; d++) out.writeUInt16LE(toHalf(v[d]!), (i * dimension + d) * 2);
  });
  return out;
}

/** Every float16 value, by its bits: decoding is a lookup (loading 25k vectors: ~30× faster than computing each). */
let halfTable: Float32Array | undefined;

/** The `index`-th vector of stored bytes (a copy). */
export function decodeVector(bytes: Uint8Array, index: number, dimension: number): Float32Array {
  const table = (halfTable ??= Float32Array.from({ length: 65536 }, (_, h) => fromHalf(h)));
  const v = new Float32Array(dimension);
  let at = index * dimension * 2;
  for (let d = 0; d < dimension; d++, at += 2) v[d] = table[bytes[at]! | (bytes[at + 1]! << 8)]!;
  return v;
}
