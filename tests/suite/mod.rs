//! Test modules.
mod io_adapters;
