//! The shared folder beside the repository (`../shared`: the spec pages, the real card data
//! and the public test vectors), found the same way by every test and bench.
//!
//! `TURNIER_SHARED_DIR` points elsewhere when set. Nothing here is ever copied into the
//! repository; a missing file fails the test with the path it looked for and the variable.

use std::path::PathBuf;

/// The variable that overrides where the shared folder is.
pub const SHARED_DIR_VAR: &str = "TURNIER_SHARED_DIR";

/// Returns the shared folder: `TURNIER_SHARED_DIR`, else `shared/` beside the repository.
pub fn dir() -> PathBuf {
    std::env::var_os(SHARED_DIR_VAR).map_or_else(
        // This crate is `services/kit` of the repository; `shared/` is the repository's sibling.
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    )
}

/// Returns the card data folder (`data/`, one sub-folder per game in its upstream format).
pub fn data_dir() -> PathBuf {
    dir().join("data")
}

/// Returns the spec folder (`spec/`, with the Turny.gg pages in `spec/turny/`).
pub fn spec_dir() -> PathBuf {
    dir().join("spec")
}

/// Returns the public test vectors (`vectors/`).
pub fn vectors_dir() -> PathBuf {
    dir().join("vectors")
}

/// Reads a file of the shared folder, `path` relative to it; panics (fails the test) with the
/// path and the variable when it cannot.
pub fn read(path: &str) -> String {
    let full = dir().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|err| {
        panic!(
            "cannot read {} ({err}); set {SHARED_DIR_VAR} to the shared folder",
            full.display()
        )
    })
}

/// Reads a page of the Turny.gg spec (`spec/turny/<name>`).
pub fn spec_page(name: &str) -> String {
    read(&format!("spec/turny/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_folder_holds_the_spec_the_data_and_the_vectors() {
        assert!(spec_page("index.md").contains('#'));
        assert!(
            data_dir().join("pokemon").is_dir(),
            "{}",
            data_dir().display()
        );
        assert!(vectors_dir().is_dir(), "{}", vectors_dir().display());
    }
}
