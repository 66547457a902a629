//! Exporters (placeholder).
