//! Fuzzes the static safety check and the source preparation: any text gets a report of at most
//! `MAX_ISSUES` issues in source order, never a panic; a script that prepares was safe, and its
//! prepared module body is still safe and keeps every line.

#![no_main]

use libfuzzer_sys::fuzz_target;
use scripts::domain::prepare::{PrepareError, prepare};
use scripts::domain::safety::{MAX_ISSUES, check};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let report = check(source);
    assert_eq!(report.safe, report.issues.is_empty());
    assert!(report.issues.len() <= MAX_ISSUES);
    let positions: Vec<(u32, u32)> =
        report.issues.iter().map(|issue| (issue.line, issue.column)).collect();
    assert!(positions.windows(2).all(|pair| pair[0] <= pair[1]), "{source:?}: {report:?}");
    match prepare(source) {
        Ok(prepared) => {
            assert!(report.safe, "{source:?} prepared but is unsafe");
            let again = check(&prepared.source);
            assert!(again.safe, "{source:?} prepared into an unsafe {:?}: {again:?}", prepared.source);
            assert!(prepared.source.lines().count() >= source.lines().count());
        }
        Err(PrepareError::Unsafe(unsafe_report)) => assert_eq!(unsafe_report, report),
        Err(PrepareError::ReservedName { name, .. }) => assert!(name.starts_with("__turnier")),
    }
});
