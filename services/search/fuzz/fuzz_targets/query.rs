//! Fuzzes the query parser (issue 4): any text either parses — and then prints back as a query
//! that parses to the same tree — or is refused with a positioned error; never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use search::domain::query::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(query) = parse(text) {
        let printed = query.to_string();
        let again = parse(&printed).expect("a printed query parses");
        // The trees differ only in the positions they record; printed, they are the same.
        assert_eq!(again.to_string(), printed, "{text:?} printed as {printed:?}");
    }
});
