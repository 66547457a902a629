//! All integration tests, one binary.
mod suite;
