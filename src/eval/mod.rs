//! The evaluation core (placeholder while the core is written).
pub mod model;
pub mod report;
