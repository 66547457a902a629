//! Test modules (one integration binary).
mod common;
mod exporters;
mod spec_examples;
mod cases;
mod architecture;
mod properties;
