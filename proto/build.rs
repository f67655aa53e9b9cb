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
    // Well-known types come from pbjson-types, so that they too have the canonical JSON
    // mapping (a `google.protobuf.Struct` is a plain JSON object).
    config.compile_well_known_types();
    config.extern_path(".google.protobuf", "::pbjson_types");
    // Maps come out in key order: the same card always gives the same JSON.
    config.btree_map(["."]);
    // `prost::Name` on every message: error details are packed as `Any` by type URL.
    config.enable_type_names();
    config.type_name_domain(["."], "type.googleapis.com");
    let descriptor_path = out_dir.join("descriptor.bin");
    tonic_prost_build::configure()
        .file_descriptor_set_path(&descriptor_path)
        .compile_with_config(config, &files, &[PathBuf::from(".")])?;

    // serde implementations following the canonical proto3 JSON mapping: camelCase names,
    // absent fields omitted, `optional` fields present whenever set.
    let descriptors = std::fs::read(&descriptor_path)?;
    pbjson_build::Builder::new()
        .register_descriptors(&descriptors)?
        .btree_map(["."])
        .build(&[".turnier"])?;

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
