//! Test modules (one integration binary).
mod architecture;
mod cases;
mod charts;
mod cli;
mod common;
mod exporters;
mod html_report;
mod injection;
mod io_adapters;
mod malformed;
mod properties;
mod spec_examples;
mod streaming;
