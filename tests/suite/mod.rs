//! Test modules (one integration binary).
mod architecture;
mod cases;
mod charts;
mod cli;
mod common;
mod exporters;
mod figures;
mod html_report;
mod injection;
mod io_adapters;
mod literature;
mod malformed;
mod parallel;
mod properties;
mod spec_examples;
mod streaming;
