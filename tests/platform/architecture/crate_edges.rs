//! The crate boundaries of `DESIGN.md` ("Boundaries"), checked against the manifests and the
//! sources, so that a forbidden edge fails a test the day it appears:
//!
//! - no service crate depends on another service crate, and neither the gateway nor `proto` nor
//!   `kit` depends on one: services meet only in `proto` and `kit`;
//! - no crate but the binary depends on a workspace crate other than `proto` and `kit`, not
//!   even for its tests: a test that needs two services is a platform test (`tests/platform`);
//! - a `domain` module imports neither `kit`, `clients`, `tonic`, `tokio` nor `sqlx`, nor
//!   another service's crate; `proto` only for the shared game (`proto::game`), or in a crate
//!   whose `domain/mod.rs` says why (the card object and the script results are the contract).
//!   Test code is not the domain: files named `tests.rs` or `*_tests.rs` and everything after a
//!   `#[cfg(test)]` module's start are left out (test modules stand at the end of their file).
//!
//! The services are the crates under `services/` other than the support crates.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates under `services/` that are not services.
const SUPPORT: &[&str] = &["kit"];

/// The workspace crates every other crate may depend on: where services meet.
const MEETING_PLACES: &[&str] = &["proto", "kit"];

/// One workspace package, from `cargo metadata`.
#[derive(Debug)]
struct Package {
    name: String,
    dir: PathBuf,
    /// (dependency name, kind: `normal`, `dev` or `build`)
    dependencies: Vec<(String, String)>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn packages() -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| Package {
            name: package["name"].as_str().expect("a name").to_owned(),
            dir: Path::new(package["manifest_path"].as_str().expect("a manifest"))
                .parent()
                .expect("a folder")
                .to_owned(),
            dependencies: package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .map(|dependency| {
                    (
                        dependency["name"].as_str().expect("a name").to_owned(),
                        dependency["kind"].as_str().unwrap_or("normal").to_owned(),
                    )
                })
                .collect(),
        })
        .collect()
}

fn services(packages: &[Package]) -> BTreeSet<String> {
    let services_dir = root().join("services");
    packages
        .iter()
        .filter(|package| package.dir.parent() == Some(services_dir.as_path()))
        .map(|package| package.name.clone())
        .filter(|name| !SUPPORT.contains(&name.as_str()))
        .collect()
}

#[test]
fn the_service_crates_are_found() {
    let services = services(&packages());
    for name in [
        "accounts",
        "catalog",
        "search",
        "decks",
        "scripts",
        "tournaments",
        "calculators",
    ] {
        assert!(services.contains(name), "{name} in {services:?}");
    }
}

#[test]
fn no_crate_but_the_binary_depends_on_a_service_crate() {
    let packages = packages();
    let services = services(&packages);
    let mut forbidden = Vec::new();
    for package in &packages {
        if package.name == "turnier" {
            continue; // The binary mounts every service.
        }
        for (dependency, kind) in &package.dependencies {
            if services.contains(dependency) && dependency != &package.name {
                forbidden.push(format!("{} → {dependency} ({kind})", package.name));
            }
        }
    }
    assert!(
        forbidden.is_empty(),
        "forbidden crate edges (services meet in `proto` and `kit` and call each other \
         through `kit::clients`; a test that needs a real peer is a platform test, in \
         tests/platform): {forbidden:?}"
    );
}

#[test]
fn crates_meet_only_in_proto_and_kit() {
    let packages = packages();
    let workspace: BTreeSet<&str> = packages.iter().map(|p| p.name.as_str()).collect();
    let mut found = Vec::new();
    for package in &packages {
        if package.name == "turnier" {
            continue;
        }
        for (dependency, kind) in &package.dependencies {
            let is_ours = workspace.contains(dependency.as_str()) && dependency != &package.name;
            if is_ours && !MEETING_PLACES.contains(&dependency.as_str()) {
                found.push(format!("{} → {dependency} ({kind})", package.name));
            }
        }
    }
    assert!(
        found.is_empty(),
        "crates meet only in proto and kit: {found:?}"
    );
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Returns the crate paths (`kit::…`) a source names outside comments.
fn named_crates(source: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (index, _) in code.match_indices("::") {
            let before = &code[..index];
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            let name = &before[start..];
            // `a::b::c` names crate `a` only: skip the segments after a first `::`.
            let is_first = !before[..start].ends_with("::");
            if is_first && !name.is_empty() {
                named.insert(name.to_owned());
            }
        }
    }
    named
}

/// Returns `source` up to its first `#[cfg(test)]` module.
fn without_tests(source: &str) -> &str {
    let mut offset = 0;
    let mut lines = source.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            return &source[..offset];
        }
        offset += line.len() + 1;
    }
    source
}

#[test]
fn domain_modules_import_no_plumbing_and_no_other_service() {
    let packages = packages();
    let services = services(&packages);
    let mut found = Vec::new();
    for service in &services {
        let domain = root().join("services").join(service).join("src/domain");
        let mut files = Vec::new();
        sources(&domain, &mut files);
        let says_why = std::fs::read_to_string(domain.join("mod.rs"))
            .is_ok_and(|text| text.contains("proto") && text.contains("contract"));
        for file in files {
            let name = file
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or_default();
            if name == "tests" || name.ends_with("_tests") {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("readable");
            // The shared game and the one text rule are part of every contract and plain Rust:
            // any domain may use them.
            let text = without_tests(&text)
                .replace("proto::game::", "")
                .replace("proto::text::", "");
            for name in named_crates(&text) {
                let plumbing =
                    ["kit", "clients", "tonic", "tokio", "sqlx", "redis"].contains(&name.as_str());
                let other_service = services.contains(&name) && &name != service;
                let unexplained_proto = name == "proto" && !says_why;
                if plumbing || other_service || unexplained_proto {
                    found.push(format!("{} uses {name}", file.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "domain modules are plain Rust (shared values come from `vocab`; a proto type used on \
         purpose is explained once in domain/mod.rs): {found:?}"
    );
}

#[test]
fn test_modules_are_left_out_of_the_domain() {
    let source = "use serde::Serialize;\n#[cfg(test)]\nmod tests {\n    use kit::testing;\n}\n";
    assert_eq!(
        named_crates(without_tests(source)),
        BTreeSet::from(["serde".to_owned()])
    );
}

#[test]
fn the_crate_name_scanner_sees_first_segments_only() {
    let named = named_crates(
        "use kit::status::Failure;\nlet x = proto::catalog::v1::Card::default(); // tokio::spawn\n",
    );
    assert_eq!(
        named,
        BTreeSet::from(["kit".to_owned(), "proto".to_owned()])
    );
}
