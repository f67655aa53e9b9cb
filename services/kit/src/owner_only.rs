//! Files and folders only their owner may read: the state folder, the embedded database and
//! the keys a process keeps there.
//!
//! Modes are set when the file or folder is made (0700 for a folder, 0600 for a file), never
//! left to the process's umask, which is commonly 022 and would let every user of the machine
//! read the accounts' password hashes in the database. SQLite gives the database's `-wal`
//! and `-shm` files the mode of the database file itself, so making that file first is enough.
//!
//! A file or folder that already exists is left as it is (an operator may have chosen its
//! mode), but one that others can read is named in a warning with the command that tightens it.

use std::fs::{DirBuilder, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;

/// The mode of a folder made here: its owner only.
pub const FOLDER_MODE: u32 = 0o700;

/// The mode of a file made here: its owner may read and write it.
pub const FILE_MODE: u32 = 0o600;

/// Makes `path` and any missing parent folder with [`FOLDER_MODE`]; warns when it already
/// existed and others may use it.
pub fn create_dir(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        warn_if_shared(path);
        return Ok(());
    }
    DirBuilder::new()
        .recursive(true)
        .mode(FOLDER_MODE)
        .create(path)
}

/// Makes the empty file `path` with [`FILE_MODE`] unless it exists (then warns when others
/// may read it). Returns whether it was made here.
pub fn create_file(path: &Path) -> io::Result<bool> {
    let made = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path);
    match made {
        Ok(_) => Ok(true),
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
            warn_if_shared(path);
            Ok(false)
        }
        Err(err) => Err(err),
    }
}

/// Warns when users other than its owner may read, write or enter `path`.
pub fn warn_if_shared(path: &Path) {
    if let Ok(metadata) = std::fs::metadata(path)
        && is_shared(metadata.permissions().mode())
    {
        tracing::warn!(
            path = %path.display(),
            mode = format!("{:o}", metadata.permissions().mode() & 0o777),
            "others than its owner may read this; tighten it with `chmod go-rwx`"
        );
    }
}

/// Returns whether a mode gives the group or others any access.
fn is_shared(mode: u32) -> bool {
    mode & 0o077 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .expect("exists")
            .permissions()
            .mode()
            & 0o777
    }

    #[test]
    fn folders_and_files_are_made_for_their_owner_only() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let nested = root.path().join("state/inner");
        create_dir(&nested).expect("made");
        assert_eq!(mode(&root.path().join("state")), FOLDER_MODE);
        assert_eq!(mode(&nested), FOLDER_MODE);
        let file = nested.join("turnier.db");
        assert!(create_file(&file).expect("made"));
        assert_eq!(mode(&file), FILE_MODE);
        assert!(!create_file(&file).expect("there"), "made once");
    }

    #[test]
    fn an_existing_file_keeps_the_mode_its_operator_chose() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let file = root.path().join("turnier.db");
        std::fs::write(&file, b"").expect("written");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        assert!(!create_file(&file).expect("there"));
        assert_eq!(mode(&file), 0o640);
        assert!(is_shared(0o640) && is_shared(0o701) && !is_shared(0o600));
    }
}
