//! Input adapters (placeholder).
