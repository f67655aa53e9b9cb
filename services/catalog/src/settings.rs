//! The catalog's settings: the folder of upstream card data imported on its first start.
//!
//! Declared here, parsed with the rest of the binary's command line by `kit::config::parse`.
//! `turnier serve` hands [`Settings::data_dir`] to [`crate::import::bootstrap`]; the command-line
//! tools that read the local catalog do the same.

use std::path::{Path, PathBuf};

use kit::config::InvalidValue;

/// Where the data folder is looked for when `TURNIER_DATA_DIR` is unset: beside a checkout of
/// the project, as the shared data is laid out in development.
const DEFAULT_DATA_DIR: &str = "../shared/data";

/// The catalog's settings, as given on the command line or in the environment.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Catalog service settings")]
// Every crate names its struct `Settings`; the group clap derives from it needs its own id.
#[group(id = "catalog_settings")]
pub struct Settings {
    /// Card data folder (lor/, pokemon/, riftbound/ in their upstream formats), imported on the
    /// catalog's first start after the built-in sample (default: ../shared/data when it
    /// exists).
    #[arg(
        long = "data-dir",
        env = "TURNIER_DATA_DIR",
        value_name = "DIR",
        value_parser = folder
    )]
    data_dir: Option<PathBuf>,
}

impl Settings {
    /// Returns the folder of card data to import: the one given, else `../shared/data` when it
    /// exists, else none (the sample catalog only).
    pub fn data_dir(&self) -> Option<PathBuf> {
        self.data_dir
            .clone()
            .or_else(|| Some(PathBuf::from(DEFAULT_DATA_DIR)).filter(|dir| dir.is_dir()))
    }
}

/// Accepts a folder that exists: a typo stops startup instead of importing nothing.
fn folder(value: &str) -> Result<PathBuf, InvalidValue> {
    if Path::new(value).is_dir() {
        Ok(PathBuf::from(value))
    } else {
        Err(InvalidValue::new("a folder", value))
    }
}

#[cfg(test)]
mod tests {
    use kit::config::ParseError;

    use super::*;

    fn parse(data_dir: Option<&str>) -> Result<Settings, ParseError> {
        let vars: Vec<(&str, &str)> = data_dir
            .map(|dir| ("TURNIER_DATA_DIR", dir))
            .into_iter()
            .collect();
        kit::config::parse_settings(&[], &vars)
    }

    #[test]
    fn a_given_folder_is_the_one_imported() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().to_str().expect("a UTF-8 temp path");
        let settings = parse(Some(path)).expect("the folder exists");
        assert_eq!(settings.data_dir(), Some(dir.path().to_owned()));
    }

    #[test]
    fn a_missing_folder_names_the_variable() {
        let Err(ParseError::Setting(err)) = parse(Some("/no/such/folder")) else {
            panic!("a missing folder is a setting's error");
        };
        assert_eq!(err.variable, "TURNIER_DATA_DIR");
        assert_eq!(
            err.to_string(),
            "TURNIER_DATA_DIR: expected a folder, got `/no/such/folder`"
        );
    }
}
