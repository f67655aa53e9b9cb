//! Compiles every `.proto` file under `turnier/` with tonic's prost generator.
//!
//! `protoc` comes from the `protoc-bin-vendored` crate so that nobody installs it by hand.
//! Besides the Rust code, writes `descriptor.bin` (a `FileDescriptorSet`) for server
//! reflection.

use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new("turnier");
    let mut files = Vec::new();
    collect_protos(root, &mut files)?;
    files.sort();

    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    let protoc = protoc_bin_vendored::protoc_bin_path()?;
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc);
    tonic_prost_build::configure()
        .file_descriptor_set_path(out_dir.join("descriptor.bin"))
        .compile_with_config(config, &files, &[PathBuf::from(".")])?;

    println!("cargo:rerun-if-changed=turnier");
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    Ok(())
}

fn collect_protos(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_protos(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "proto") {
            out.push(path);
        }
    }
    Ok(())
}
