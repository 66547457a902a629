//! Test modules (one integration binary).
mod common;
mod spec_examples;
