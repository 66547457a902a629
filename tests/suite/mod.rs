//! Test modules.
mod exporters;
