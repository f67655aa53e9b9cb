//! The parser: a query string to a [`Query`], by recursive descent over characters.
//!
//! Grammar (juxtaposition binds tighter than `or`; `-` binds to the next term or group):
//!
//! ```text
//! query   = or?
//! or      = and ( ("or" | "OR") and )*
//! and     = unary+
//! unary   = "-" unary | primary
//! primary = "(" or ")" | "\"" text "\"" | "!" value | "/" regex "/" | name op value | word
//! op      = ":" | "=" | "!=" | "<" | "<=" | ">" | ">="
//! ```

use regex::{Regex, RegexBuilder};

use super::{Form, Node, Op, Query, QueryError, Term};

/// The longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1_000;

/// The longest regular expression accepted, in characters.
pub const MAX_REGEX_CHARS: usize = 200;

/// How deeply parentheses and negations may nest (bounds the recursion of every later pass).
const MAX_DEPTH: usize = 32;

/// Compiled size limit of one regular expression, in bytes.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Parses a query.
pub fn parse(input: &str) -> Result<Query, QueryError> {
    let chars: Vec<char> = input.chars().collect();
    if chars.len() > MAX_QUERY_CHARS {
        return Err(QueryError::TooLong {
            chars: chars.len(),
            limit: MAX_QUERY_CHARS,
        });
    }
    let mut parser = Parser { chars, pos: 0 };
    let root = parser.or(0)?;
    parser.skip_spaces();
    if let Some(&ch) = parser.chars.get(parser.pos) {
        // `or` stops only at `)` or a dangling `or`.
        return Err(if ch == ')' {
            QueryError::UnmatchedParenthesis {
                position: parser.pos,
            }
        } else {
            QueryError::DanglingOr {
                position: parser.pos,
            }
        });
    }
    Ok(Query { root })
}

/// Compiles a query's regular expression the one way the language allows: case-insensitive,
/// with the linear-time engine and bounded size.
pub fn regex_for(pattern: &str) -> Result<Regex, String> {
    if pattern.chars().count() > MAX_REGEX_CHARS {
        return Err(format!("longer than {MAX_REGEX_CHARS} characters"));
    }
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .nest_limit(MAX_DEPTH as u32)
        .build()
        .map_err(|err| match err {
            regex::Error::Syntax(text) => text
                .lines()
                .last()
                .unwrap_or("syntax error")
                .trim_start_matches("error: ")
                .to_owned(),
            regex::Error::CompiledTooBig(_) => "too large".to_owned(),
            _ => "cannot be compiled".to_owned(),
        })
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

fn ends_word(ch: char) -> bool {
    ch.is_whitespace() || ch == '(' || ch == ')' || ch == '"'
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// True when the next word is the `or` operator (`or`/`OR` in any case, unquoted, alone).
    fn at_or(&self) -> bool {
        matches!(self.peek(), Some('o' | 'O'))
            && matches!(self.peek_at(1), Some('r' | 'R'))
            && self.peek_at(2).is_none_or(ends_word)
    }

    fn or(&mut self, depth: usize) -> Result<Option<Node>, QueryError> {
        self.skip_spaces();
        if self.at_or() {
            return Err(QueryError::DanglingOr { position: self.pos });
        }
        let Some(first) = self.and(depth)? else {
            return Ok(None);
        };
        let mut terms = vec![first];
        loop {
            self.skip_spaces();
            if !self.at_or() {
                break;
            }
            let or_at = self.pos;
            self.pos += 2;
            self.skip_spaces();
            if self.at_or() {
                return Err(QueryError::DanglingOr { position: self.pos });
            }
            match self.and(depth)? {
                Some(next) => terms.push(next),
                None => return Err(QueryError::DanglingOr { position: or_at }),
            }
        }
        Ok(Some(if terms.len() == 1 {
            terms.remove(0)
        } else {
            Node::Or { terms }
        }))
    }

    fn and(&mut self, depth: usize) -> Result<Option<Node>, QueryError> {
        let mut terms = Vec::new();
        loop {
            self.skip_spaces();
            match self.peek() {
                None | Some(')') => break,
                Some(_) if self.at_or() => break,
                Some(_) => terms.push(self.unary(depth)?),
            }
        }
        Ok(match terms.len() {
            0 => None,
            1 => terms.pop(),
            _ => Some(Node::And { terms }),
        })
    }

    fn unary(&mut self, depth: usize) -> Result<Node, QueryError> {
        if depth >= MAX_DEPTH {
            return Err(QueryError::TooDeep { position: self.pos });
        }
        if self.peek() == Some('-') {
            let at = self.pos;
            if self
                .peek_at(1)
                .is_none_or(|ch| ch.is_whitespace() || ch == ')')
            {
                return Err(QueryError::DanglingNegation { position: at });
            }
            self.pos += 1;
            let term = self.unary(depth + 1)?;
            return Ok(Node::Not {
                term: Box::new(term),
            });
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> Result<Node, QueryError> {
        let start = self.pos;
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let inner = self.or(depth + 1)?;
                self.skip_spaces();
                if self.peek() != Some(')') {
                    return Err(QueryError::UnclosedParenthesis { position: start });
                }
                self.pos += 1;
                inner.ok_or(QueryError::EmptyGroup { position: start })
            }
            Some('"') => {
                let value = self.quoted()?;
                self.term(None, Op::Has, value, Form::Quoted, start)
            }
            Some('!') => {
                self.pos += 1;
                let value = self.value_after_bang()?;
                self.term(None, Op::Has, value, Form::Exact, start)
            }
            Some('/') => {
                let value = self.regex()?;
                self.term(None, Op::Has, value, Form::Regex, start)
            }
            _ => self.field_or_word(start),
        }
    }

    fn term(
        &self,
        field: Option<String>,
        op: Op,
        value: String,
        form: Form,
        position: usize,
    ) -> Result<Node, QueryError> {
        if value.is_empty() {
            return Err(QueryError::EmptyValue {
                field: field.unwrap_or_else(|| "\"\"".to_owned()),
                position,
            });
        }
        Ok(Node::Term(Term {
            field,
            op,
            value,
            form,
            position,
        }))
    }

    fn field_or_word(&mut self, start: usize) -> Result<Node, QueryError> {
        let mut end = self.pos;
        while self
            .chars
            .get(end)
            .is_some_and(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
        {
            end += 1;
        }
        let starts_with_letter = self.peek().is_some_and(|ch| ch.is_ascii_alphabetic());
        if starts_with_letter && let Some((op, op_len)) = self.operator_at(end) {
            let field: String = self.chars[start..end].iter().collect::<String>();
            let field = field.to_ascii_lowercase();
            self.pos = end + op_len;
            return self.field_value(field, op, start);
        }
        let value = self.bare();
        self.term(None, Op::Has, value, Form::Bare, start)
    }

    fn operator_at(&self, at: usize) -> Option<(Op, usize)> {
        let first = *self.chars.get(at)?;
        let second = self.chars.get(at + 1).copied();
        Some(match (first, second) {
            (':', _) => (Op::Has, 1),
            ('!', Some('=')) => (Op::Ne, 2),
            ('<', Some('=')) => (Op::Le, 2),
            ('>', Some('=')) => (Op::Ge, 2),
            ('=', _) => (Op::Eq, 1),
            ('<', _) => (Op::Lt, 1),
            ('>', _) => (Op::Gt, 1),
            _ => return None,
        })
    }

    fn field_value(&mut self, field: String, op: Op, start: usize) -> Result<Node, QueryError> {
        let (value, form) = match self.peek() {
            Some('"') => (self.quoted()?, Form::Quoted),
            Some('!') if op == Op::Has => {
                self.pos += 1;
                (self.value_after_bang()?, Form::Exact)
            }
            Some('/') if op == Op::Has => (self.regex()?, Form::Regex),
            _ => (self.bare(), Form::Bare),
        };
        self.term(Some(field), op, value, form, start)
    }

    fn value_after_bang(&mut self) -> Result<String, QueryError> {
        if self.peek() == Some('"') {
            self.quoted()
        } else {
            Ok(self.bare())
        }
    }

    /// Reads up to whitespace, a parenthesis or a quote.
    fn bare(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(|ch| !ends_word(ch)) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    /// Reads `"…"` with `\"` and `\\` escapes; `pos` is at the opening quote.
    fn quoted(&mut self) -> Result<String, QueryError> {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            match self.peek() {
                None => return Err(QueryError::UnclosedQuote { position: start }),
                Some('"') => {
                    self.pos += 1;
                    return Ok(value);
                }
                Some('\\') if matches!(self.peek_at(1), Some('"' | '\\')) => {
                    value.extend(self.peek_at(1));
                    self.pos += 2;
                }
                Some(ch) => {
                    value.push(ch);
                    self.pos += 1;
                }
            }
        }
    }

    /// Reads `/…/` (a `\/` does not close it) and checks that it compiles.
    fn regex(&mut self) -> Result<String, QueryError> {
        let start = self.pos;
        self.pos += 1;
        let mut pattern = String::new();
        loop {
            match self.peek() {
                None => return Err(QueryError::UnclosedRegex { position: start }),
                Some('/') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') if self.peek_at(1).is_some() => {
                    pattern.push('\\');
                    pattern.extend(self.peek_at(1));
                    self.pos += 2;
                }
                Some(ch) => {
                    pattern.push(ch);
                    self.pos += 1;
                }
            }
        }
        if !pattern.is_empty() {
            regex_for(&pattern).map_err(|reason| QueryError::BadRegex {
                position: start,
                reason,
            })?;
        }
        Ok(pattern)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(field: Option<&str>, op: Op, value: &str, form: Form, position: usize) -> Node {
        Node::Term(Term {
            field: field.map(str::to_owned),
            op,
            value: value.to_owned(),
            form,
            position,
        })
    }

    fn root(input: &str) -> Node {
        parse(input)
            .unwrap_or_else(|err| panic!("{input}: {err}"))
            .root
            .unwrap_or_else(|| panic!("{input}: empty"))
    }

    #[test]
    fn parses_fields_aliases_and_operators() {
        assert_eq!(
            root("t:unit"),
            term(Some("t"), Op::Has, "unit", Form::Bare, 0)
        );
        assert_eq!(
            root("COST<=2"),
            term(Some("cost"), Op::Le, "2", Form::Bare, 0)
        );
        for (text, op) in [
            ("cost:3", Op::Has),
            ("cost=3", Op::Eq),
            ("cost!=3", Op::Ne),
            ("cost<3", Op::Lt),
            ("cost<=3", Op::Le),
            ("cost>3", Op::Gt),
            ("cost>=3", Op::Ge),
        ] {
            assert_eq!(
                root(text),
                term(Some("cost"), op, "3", Form::Bare, 0),
                "{text}"
            );
        }
    }

    #[test]
    fn parses_quoted_exact_and_regex_values() {
        assert_eq!(
            root(r#"o:"draw 1""#),
            term(Some("o"), Op::Has, "draw 1", Form::Quoted, 0)
        );
        assert_eq!(
            root("n:!vi"),
            term(Some("n"), Op::Has, "vi", Form::Exact, 0)
        );
        assert_eq!(
            root("n:/^the /"),
            term(Some("n"), Op::Has, "^the ", Form::Regex, 0)
        );
        assert_eq!(
            root(r#"is:"ace spec""#),
            term(Some("is"), Op::Has, "ace spec", Form::Quoted, 0)
        );
        assert_eq!(root(r#""or""#), term(None, Op::Has, "or", Form::Quoted, 0));
    }

    #[test]
    fn juxtaposition_binds_tighter_than_or() {
        let parsed = root("a b or c");
        let Node::Or { terms } = parsed else {
            panic!("{parsed:?}")
        };
        assert!(matches!(&terms[0], Node::And { terms } if terms.len() == 2));
        assert_eq!(terms[1], term(None, Op::Has, "c", Form::Bare, 7));
        assert!(matches!(root("a OR b"), Node::Or { .. }));
        assert!(matches!(root("a Or b"), Node::Or { .. }));
    }

    #[test]
    fn parentheses_group_and_minus_negates_terms_and_groups() {
        let parsed = root("-(a or b) c");
        let Node::And { terms } = parsed else {
            panic!("{parsed:?}")
        };
        assert!(matches!(&terms[0], Node::Not { term } if matches!(**term, Node::Or { .. })));
        assert!(matches!(root("-t:spell"), Node::Not { .. }));
        assert!(matches!(root("order:name"), Node::Term(_)));
    }

    #[test]
    fn reports_errors_with_their_position() {
        let cases = [
            ("(a b", QueryError::UnclosedParenthesis { position: 0 }),
            ("a b)", QueryError::UnmatchedParenthesis { position: 3 }),
            ("a \"b", QueryError::UnclosedQuote { position: 2 }),
            ("n:/ab", QueryError::UnclosedRegex { position: 2 }),
            (
                "t: a",
                QueryError::EmptyValue {
                    field: "t".into(),
                    position: 0,
                },
            ),
            ("a ()", QueryError::EmptyGroup { position: 2 }),
            ("a or", QueryError::DanglingOr { position: 2 }),
            ("or a", QueryError::DanglingOr { position: 0 }),
            ("a - b", QueryError::DanglingNegation { position: 2 }),
        ];
        for (input, expected) in cases {
            assert_eq!(parse(input), Err(expected), "{input}");
        }
        let bad = parse("n:/(ab/").expect_err("bad regex");
        assert!(
            matches!(bad, QueryError::BadRegex { position: 2, .. }),
            "{bad}"
        );
        assert!(
            bad.to_string()
                .starts_with("invalid regular expression at position 2")
        );
    }

    #[test]
    fn refuses_queries_over_a_thousand_characters() {
        assert!(parse(&"a".repeat(1_000)).is_ok());
        assert_eq!(
            parse(&"a".repeat(1_001)),
            Err(QueryError::TooLong {
                chars: 1_001,
                limit: 1_000
            })
        );
    }

    #[test]
    fn refuses_regexes_that_are_too_large() {
        assert!(parse(&format!("n:/{}/", "a".repeat(201))).is_err());
        assert!(parse("n:/\\w{1000}{1000}/").is_err());
    }

    #[test]
    fn printing_gives_back_an_equivalent_query() {
        for input in [
            "t:unit cost<=2 region:demacia",
            "is:champion (region:freljord or region:ionia)",
            "a b or c",
            "-(a or b) -c",
            r#"o:"say \"hi\"" n:!vi n:/^the /"#,
            "not:ex",
        ] {
            let parsed = parse(input).expect("parses");
            let printed = parsed.to_string();
            assert_eq!(
                parse(&printed).expect("reparses").without_positions(),
                parsed.without_positions(),
                "{input} → {printed}"
            );
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}a{}", "(".repeat(40), ")".repeat(40));
        assert!(matches!(parse(&deep), Err(QueryError::TooDeep { .. })));
        let negated = format!("{}a", "-".repeat(40));
        assert!(matches!(parse(&negated), Err(QueryError::TooDeep { .. })));
    }
}
