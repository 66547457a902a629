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
mod properties;
mod real_data;
mod settings_layer;
mod spec_examples;
mod streaming;
