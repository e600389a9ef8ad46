//! A seeded generator for segment jitter (SplitMix64): deterministic replay, no OS randomness.

/// SplitMix64 (Steele, Lea and Flood), enough for drawing jitter.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniformly drawn `i32`, like Java's `Random.nextInt()`.
    pub fn next_i32(&mut self) -> i32 {
        (self.next_u64() >> 32) as i32
    }
}
