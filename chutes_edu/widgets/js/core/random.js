// @ts-check
/**
 * The page's seeded random numbers: `createRandom(seed)` gives uniforms on (0, 1) from
 * xoshiro128** (Blackman and Vigna 2021), a 32-bit generator of period 2^128 - 1 whose 128-bit
 * state is filled by four outputs of splitmix32 from the seed. Its own stream, not numpy's: the
 * page's draws are not the library's for the same seed, but the same seed always gives the same
 * draws, in every browser and in Node (32-bit integer arithmetic: Math.imul and >>> 0).
 *
 * @module random
 */

/**
 * A seeded generator of uniforms on (0, 1): xoshiro128** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", 2021), its state filled by splitmix32 from the seed. Each
 * uniform is (x + 0.5) / 2^32 for a 32-bit output x, so it is never 0 or 1.
 * @param {number} seed A whole number from 0 to 2^32 - 1 (maths/coin_math.js's `checkSeed` checks
 *     a seed from the page).
 * @returns {() => number}
 */
export function createRandom(seed) {
  let s = seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  return () => {
    const x = Math.imul(rotate(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotate(d, 11);
    return (x + 0.5) / 4294967296;
  };
}

/** @param {number} x @param {number} k */
function rotate(x, k) {
  return (x << k) | (x >>> (32 - k));
}
