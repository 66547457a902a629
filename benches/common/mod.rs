//! What the benchmarks share: reading their settings from the environment.
//! Each bench includes it with `mod common;`.

/// The whole number in the environment variable `name`, or `default` when
/// it is unset; a value that is not a number stops the run (a typo must
/// not time the default size silently).
pub fn env_count(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(n) => n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={n:?} is not a number")),
        Err(_) => default,
    }
}
