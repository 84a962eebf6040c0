//! Letters: the golden corpus under tests/data/letters.
