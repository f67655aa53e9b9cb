//! The command line: help, migrations, and bad configuration that stops the process with one
//! line naming the problem; and the README's configuration table, checked against `--help`.

use crate::support;

use std::collections::BTreeSet;

use support::run;

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A bad setting: non-zero exit, one error line naming the problem, no panic, no backtrace.
/// (Log lines written before the failure may precede it.)
fn assert_refused(output: &std::process::Output, expected: &str) {
    let stderr = stderr(output);
    assert!(!output.status.success(), "should fail: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("turnier: "))
        .collect();
    assert_eq!(errors.len(), 1, "one error line: {stderr}");
    assert!(
        errors[0].contains(expected),
        "expected `{expected}` in: {stderr}"
    );
    assert_eq!(
        stderr.trim_end().lines().last(),
        Some(errors[0]),
        "the error comes last: {stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
}

/// Returns what `turnier --help` prints.
fn help(dir: &std::path::Path) -> String {
    let output = run(dir, &["--help"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The variables `--help` shows: clap writes `[env: NAME=value]` after each setting's help
/// (`[env: NAME]` when the value is hidden), wrapped wherever the terminal width falls.
fn help_variables(help: &str) -> BTreeSet<String> {
    let words: Vec<&str> = help.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "[env:")
        .filter_map(|pair| pair[1].split(['=', ']']).next())
        .map(str::to_owned)
        .collect()
}

/// The variables of the README's configuration table: each `NAME` in backticks in the first
/// column of a row of the "Configuration" section.
fn readme_variables() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README is readable");
    let section = readme
        .split("\n## Configuration\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README has a Configuration section");
    let is_variable = |word: &str| {
        !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    section
        .lines()
        .filter_map(|line| line.strip_prefix('|')?.split('|').next())
        // In a cell, the odd pieces between backticks are the quoted ones.
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .filter(|word| is_variable(word))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_configuration_table_lists_exactly_the_variables_of_help() {
    let dir = tempfile::tempdir().expect("temp dir");
    let in_help = help_variables(&help(dir.path()));
    let in_readme = readme_variables();
    assert!(
        in_help.len() > 20,
        "too few variables in --help: {in_help:?}"
    );
    let missing_from_readme: Vec<_> = in_help.difference(&in_readme).collect();
    let missing_from_help: Vec<_> = in_readme.difference(&in_help).collect();
    assert!(
        missing_from_readme.is_empty() && missing_from_help.is_empty(),
        "README.md's configuration table and `turnier --help` disagree:\n\
         in --help, not in the README: {missing_from_readme:?}\n\
         in the README, not in --help: {missing_from_help:?}"
    );
}

#[test]
fn help_explains_every_command_and_setting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let help = help(dir.path());
    let services = kit::services::Service::ALL.map(kit::services::Service::url_env);
    for needle in ["serve", "migrate", "TURNIER_GRPC_ADDR", "DATABASE_URL"]
        .into_iter()
        .chain(services)
    {
        assert!(
            help.contains(needle),
            "`{needle}` missing from --help:\n{help}"
        );
    }
    let serve = run(dir.path(), &["serve", "--help"], &[]);
    assert!(String::from_utf8_lossy(&serve.stdout).contains("--only <ROLE>"));
}

#[test]
fn an_unknown_service_name_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(dir.path(), &["serve", "--only", "billing"], &[]);
    assert_refused(&output, "unknown service `billing`");
}

#[test]
fn a_malformed_database_url_is_refused_naming_the_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(
        dir.path(),
        &["serve"],
        &[("DATABASE_URL", "mysql://localhost/turnier")],
    );
    assert_refused(&output, "DATABASE_URL: expected postgres://… or sqlite://…");
}

#[test]
fn a_malformed_number_is_refused_in_one_line_naming_the_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(dir.path(), &["migrate"], &[("DB_MAX_CONNECTIONS", "ten")]);
    assert_refused(
        &output,
        "turnier: DB_MAX_CONNECTIONS: expected a whole number from 1 to 1000, got `ten`",
    );
}

#[test]
fn a_malformed_flag_is_refused_naming_its_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(dir.path(), &["serve", "--body-limit-bytes", "0"], &[]);
    assert_refused(
        &output,
        "turnier: TURNIER_BODY_LIMIT_BYTES: expected a positive number of bytes, got `0`",
    );
}

#[test]
fn blank_variables_count_as_unset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let blank = [
        "DB_MAX_CONNECTIONS",
        "REDIS_URL",
        "TURNIER_GRPC_ADDR",
        "TURNIER_CATALOG_URL",
        "TURNIER_CORS_ORIGINS",
        "TURNIER_SCRIPT_MEMORY_MIB",
        "TURNIER_DATA_DIR",
    ];
    let env: Vec<(&str, &str)> = blank.iter().map(|variable| (*variable, "")).collect();
    let output = run(dir.path(), &["migrate"], &env);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn a_malformed_service_url_is_refused_naming_the_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(
        dir.path(),
        &["serve", "--only", "gateway"],
        &[("TURNIER_SEARCH_URL", "search:50053")],
    );
    assert_refused(&output, "TURNIER_SEARCH_URL");
}

#[test]
fn a_port_in_use_is_refused_naming_the_setting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("address").to_string();
    let output = run(
        dir.path(),
        &["serve", "--only", "decks"],
        &[("TURNIER_GRPC_ADDR", addr.as_str())],
    );
    assert_refused(
        &output,
        &format!("TURNIER_GRPC_ADDR: cannot listen on {addr}: address already in use"),
    );
}

#[test]
fn an_unreachable_database_is_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = support::free_port().to_string();
    let url = format!("postgres://postgres:secret@127.0.0.1:{port}/turnier");
    let output = run(dir.path(), &["migrate"], &[("DATABASE_URL", url.as_str())]);
    assert_refused(&output, "PostgreSQL");
    assert!(
        !stderr(&output).contains("secret"),
        "the password never appears"
    );
}

#[tokio::test]
async fn migrate_applies_migrations_to_sqlite_and_postgres_and_is_repeatable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = format!("sqlite://{}", dir.path().join("state/turnier.db").display());
    let postgres = kit::testing::TestDatabase::postgres().await;
    for url in [sqlite.as_str(), postgres.url()] {
        for _ in 0..2 {
            let output = run(dir.path(), &["migrate"], &[("DATABASE_URL", url)]);
            assert!(output.status.success(), "{url}: {}", stderr(&output));
        }
    }
    assert!(dir.path().join("state/turnier.db").exists());
}
