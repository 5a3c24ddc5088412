//! A small deterministic generator (xorshift): the clause orders of
//! the loop's `Options::seed` and of the racing copies, and the random formulas and graphs
//! of the unit tests, so that every run and every failure reproduces.

/// Xorshift64; the state must not be zero.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
