//! Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random
//! numbers: as easy as 1, 2, 3", SC'11), the same function as `metaopt_rng4` in `cl/common.cl`.
//! A (seed, stream, counter) triple always gives the same four words, on any device and here.

const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// The Philox4x32 bijection with 10 rounds.
pub fn philox4x32_10(mut c: [u32; 4], mut k: [u32; 2]) -> [u32; 4] {
    for _ in 0..10 {
        let p0 = (M0 as u64) * (c[0] as u64);
        let p1 = (M1 as u64) * (c[2] as u64);
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
        k[0] = k[0].wrapping_add(W0);
        k[1] = k[1].wrapping_add(W1);
    }
    c
}

/// Four random words for (seed, stream, counter), as `metaopt_rng4` in the kernels.
pub fn rng4(seed: u64, stream: u32, counter: u64) -> [u32; 4] {
    philox4x32_10(
        [counter as u32, (counter >> 32) as u32, stream, 0],
        [seed as u32, (seed >> 32) as u32],
    )
}

/// A sequential reader over one (seed, stream): words 4c..4c+3 come from counter c. It
/// serialises as its position (a checkpoint resumes its draws where they were); a position read
/// back is checked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "PhiloxPosition", try_from = "PhiloxPosition")]
pub struct Philox {
    seed: u64,
    stream: u32,
    counter: u64,
    buf: [u32; 4],
    used: usize,
}

/// Where a [`Philox`] reader is: the words of counters before `counter` are drawn, and `used`
/// of the last counter's four (4: all of them, the next draw computes `counter`).
#[derive(serde::Serialize, serde::Deserialize)]
struct PhiloxPosition {
    seed: u64,
    stream: u32,
    counter: u64,
    used: u8,
}

impl From<Philox> for PhiloxPosition {
    fn from(p: Philox) -> Self {
        PhiloxPosition {
            seed: p.seed,
            stream: p.stream,
            counter: p.counter,
            used: p.used as u8,
        }
    }
}

impl TryFrom<PhiloxPosition> for Philox {
    type Error = String;
    fn try_from(p: PhiloxPosition) -> Result<Self, String> {
        if p.used > 4 || (p.used < 4 && p.counter == 0) {
            return Err(format!(
                "a random-number position of {} words of counter {}",
                p.used, p.counter
            ));
        }
        let buf = if p.used < 4 {
            rng4(p.seed, p.stream, p.counter - 1)
        } else {
            [0; 4]
        };
        Ok(Philox {
            seed: p.seed,
            stream: p.stream,
            counter: p.counter,
            buf,
            used: p.used as usize,
        })
    }
}

impl Philox {
    pub fn new(seed: u64, stream: u32) -> Self {
        Philox {
            seed,
            stream,
            counter: 0,
            buf: [0; 4],
            used: 4,
        }
    }

    /// A reader over (seed, stream) starting at counter `counter` (a block of counters of its
    /// own, for one decision of one generation).
    pub fn at(seed: u64, stream: u32, counter: u64) -> Self {
        Philox {
            seed,
            stream,
            counter,
            buf: [0; 4],
            used: 4,
        }
    }

    /// A uniform value in (0, 1) from the next word, as `de::ops::unit`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u32() as f64 + 0.5) * (1.0 / 4_294_967_296.0)
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.used == 4 {
            self.buf = rng4(self.seed, self.stream, self.counter);
            self.counter = self.counter.wrapping_add(1);
            self.used = 0;
        }
        let v = self.buf[self.used];
        self.used += 1;
        v
    }

    /// Uniform in 0..n (n >= 1) by Lemire's multiply-shift with rejection, so without bias.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u32() as u64) * (n as u64);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniformly random permutation of 0..n (Fisher-Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i as u32 + 1) as usize;
            p.swap(i, j);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_reader_serialises_mid_block_and_draws_on_alike() {
        let mut a = super::Philox::new(7, 3);
        for _ in 0..6 {
            a.next_u32();
        }
        let bytes = postcard::to_stdvec(&a).unwrap();
        let mut b: super::Philox = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(a, b);
        for _ in 0..9 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
        // a position that cannot be is refused
        let bad = postcard::to_stdvec(&(7u64, 3u32, 0u64, 2u8)).unwrap();
        assert!(postcard::from_bytes::<super::Philox>(&bad).is_err());
        let bad = postcard::to_stdvec(&(7u64, 3u32, 5u64, 9u8)).unwrap();
        assert!(postcard::from_bytes::<super::Philox>(&bad).is_err());
    }

    use super::*;

    // Known-answer vectors of Random123 (kat_vectors, philox4x32 with 10 rounds).
    #[test]
    fn philox_known_answers() {
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0]
            ),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }

    #[test]
    fn permutation_is_a_permutation_and_seeded() {
        let mut a = Philox::new(7, 3);
        let p = a.permutation(100);
        let mut s = p.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_eq!(p, Philox::new(7, 3).permutation(100));
        assert_ne!(p, Philox::new(7, 4).permutation(100));
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Philox::new(1, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }
}
