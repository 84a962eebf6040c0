//! Rules: move generation vectors, perft tables, notation round trips.
