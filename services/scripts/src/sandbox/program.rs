//! The program the sandbox compiles: our prelude, the prepared user module, our driver.
//!
//! Rewriting the user's module (imports, exports, the default export bound to
//! `__turnier_default`) is `crate::domain::prepare`'s job; this module only frames it.

use std::sync::OnceLock;

/// The prelude as written, readable and commented (see `prelude.js`).
const PRELUDE_SOURCE: &str = include_str!("prelude.js");

/// The driver, appended as it is (see `driver.js`).
const DRIVER: &str = include_str!("driver.js");

/// Returns the program for a prepared user source: `<prelude on one line>\n<source>\n<driver>`.
///
/// The prelude takes exactly one line, so a line number in an error message is the user's line
/// number plus one.
pub fn program(prepared_user_source: &str) -> String {
    let prelude = one_line_prelude();
    let mut program =
        String::with_capacity(prelude.len() + prepared_user_source.len() + DRIVER.len() + 2);
    program.push_str(prelude);
    program.push('\n');
    program.push_str(prepared_user_source);
    program.push('\n');
    program.push_str(DRIVER);
    program
}

/// Returns the prelude joined into one line: blank lines and `//` comment lines dropped, the
/// rest trimmed and joined with spaces (`prelude.js` ends every statement with a semicolon and
/// has no comment after code, so joining keeps its meaning).
fn one_line_prelude() -> &'static str {
    static PRELUDE: OnceLock<String> = OnceLock::new();
    PRELUDE.get_or_init(|| {
        PRELUDE_SOURCE
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with("//"))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puts_the_user_source_on_the_second_line() {
        let source = "const __turnier_default = (deck) => true;\nconst x = 1;";
        let program = program(source);
        let lines: Vec<&str> = program.lines().collect();
        assert!(lines[0].starts_with("const __turnier_io = "));
        assert_eq!(lines[1], "const __turnier_default = (deck) => true;");
        assert_eq!(lines[2], "const x = 1;");
        assert!(lines[3].starts_with("// The sandbox's driver"));
    }

    #[test]
    fn the_prelude_is_one_line_without_comments() {
        // A `//` left in the joined line would comment out the rest of the prelude.
        assert!(!one_line_prelude().contains("//"));
        assert!(!one_line_prelude().contains('\n'));
        assert!(one_line_prelude().ends_with("})();"));
    }

    #[test]
    fn the_driver_cannot_be_swallowed_by_a_block_comment_and_starts_a_new_statement() {
        assert!(!DRIVER.contains("*/"));
        let code = DRIVER
            .lines()
            .find(|line| !line.starts_with("//") && !line.is_empty());
        assert_eq!(code.map(|line| line.starts_with(';')), Some(true));
    }
}
