//! Turns a parsed [`Query`] into a [`Matcher`] for one game: resolves fields, aliases and
//! shortcuts, applies each field kind's matching rules, and collects the warnings (unknown
//! fields and shortcuts, values a comparison cannot use) and the directives (`order:`,
//! `direction:`, `unique:`).

use std::sync::Arc;

use super::cost::EnergyMix;
use super::games::{FieldDef, FieldKey, FieldKind, GameSpec, rank_in};
use super::matcher::{Matcher, Needle, Pred, Target};
use super::order::SortKey;
use super::query::{Form, Node, Op, Query, Term, regex_for};
use super::text::fold;

/// A word that ranks results by name closeness.
#[derive(Debug, Clone)]
pub struct RankWord {
    /// Folded word.
    pub word: String,
    /// Per card, the fewest typos to a name key (`u8::MAX`: none), when it was computed.
    pub typos: Option<Arc<[u8]>>,
}

/// A query ready to run.
#[derive(Debug)]
pub struct Compiled {
    /// The filter.
    pub matcher: Matcher,
    /// Warnings for the response, each once.
    pub warnings: Vec<String>,
    /// `order:`, when given.
    pub order: Option<SortKey>,
    /// `direction:desc`.
    pub descending: bool,
    /// `unique:prints`: one row per printing.
    pub prints: bool,
    /// Plain words and `n:` words outside negations: they rank the results.
    pub rank_words: Vec<RankWord>,
}

/// Compiles `query` for a game; `typos` computes, for a folded word, the fewest typos of each
/// card's name keys (`u8::MAX` when none is within the rule).
pub fn compile(query: &Query, spec: &GameSpec, typos: &dyn Fn(&str) -> Arc<[u8]>) -> Compiled {
    let mut compiler = Compiler {
        spec,
        typos,
        out: Compiled {
            matcher: Matcher::All,
            warnings: Vec::new(),
            order: None,
            descending: false,
            prints: false,
            rank_words: Vec::new(),
        },
    };
    let matcher = query
        .root
        .as_ref()
        .and_then(|root| compiler.node(root, false))
        .unwrap_or(Matcher::All);
    compiler.out.matcher = matcher;
    compiler.out
}

struct Compiler<'a> {
    spec: &'a GameSpec,
    typos: &'a dyn Fn(&str) -> Arc<[u8]>,
    out: Compiled,
}

impl Compiler<'_> {
    fn warn(&mut self, warning: String) {
        if !self.out.warnings.contains(&warning) {
            self.out.warnings.push(warning);
        }
    }

    fn rank(&mut self, word: &str, typos: Option<&Arc<[u8]>>, negated: bool) {
        if !negated {
            self.out.rank_words.push(RankWord {
                word: word.to_owned(),
                typos: typos.cloned(),
            });
        }
    }

    /// `None` is a directive: it neither filters nor counts as a term.
    fn node(&mut self, node: &Node, negated: bool) -> Option<Matcher> {
        match node {
            Node::And { terms } => {
                let children: Vec<Matcher> =
                    terms.iter().filter_map(|t| self.node(t, negated)).collect();
                (!children.is_empty()).then_some(Matcher::And(children))
            }
            Node::Or { terms } => {
                let children: Vec<Matcher> =
                    terms.iter().filter_map(|t| self.node(t, negated)).collect();
                (!children.is_empty()).then_some(Matcher::Or(children))
            }
            Node::Not { term } => self
                .node(term, !negated)
                .map(|inner| Matcher::Not(Box::new(inner))),
            Node::Term(term) => self.term(term, negated),
        }
    }

    fn term(&mut self, term: &Term, negated: bool) -> Option<Matcher> {
        let Some(field) = term.field.as_deref() else {
            return Some(self.plain(term, negated));
        };
        match field {
            "is" => return Some(self.shortcut(term)),
            "not" => return Some(Matcher::Not(Box::new(self.shortcut(term)))),
            "order" | "direction" | "unique" => {
                self.directive(field, &term.value);
                return None;
            }
            _ => {}
        }
        let Some(def) = self.spec.field(field) else {
            self.warn(format!("unknown field `{field}`: it matches no cards"));
            return Some(Matcher::Nothing);
        };
        Some(match def.kind {
            FieldKind::Text | FieldKind::Value => self.text_field(def, term, negated),
            FieldKind::Number => self.number_field(def, term),
            FieldKind::CostSymbols => self.cost_field(def, term),
        })
    }

    fn plain(&mut self, term: &Term, negated: bool) -> Matcher {
        let word = fold(&term.value);
        Matcher::pred(match term.form {
            Form::Bare => {
                let typos = (self.typos)(&word);
                self.rank(&word, Some(&typos), negated);
                Pred::Word {
                    typos,
                    word: Needle::new(&word),
                    with_text: true,
                }
            }
            Form::Quoted => {
                self.rank(&word, None, negated);
                Pred::Contains(Target::NameOrText, Needle::new(&word))
            }
            Form::Exact => Pred::Equals(Target::NameAndText, word),
            Form::Regex => match regex_for(&term.value) {
                Ok(re) => Pred::Regex(Target::NameAndText, re),
                Err(_) => return Matcher::Nothing,
            },
        })
    }

    fn shortcut(&mut self, term: &Term) -> Matcher {
        if term.form == Form::Regex || !matches!(term.op, Op::Has | Op::Eq) {
            self.warn(format!(
                "`is:` takes a shortcut name, not `{}`: it matches no cards",
                term.value
            ));
            return Matcher::Nothing;
        }
        match self.spec.shortcut(&term.value) {
            Some(found) => Matcher::pred(Pred::Shortcut(found)),
            None => {
                self.warn(format!(
                    "unknown shortcut `is:{}`: it matches no cards",
                    term.value
                ));
                Matcher::Nothing
            }
        }
    }

    fn directive(&mut self, field: &str, value: &str) {
        let value = value.to_ascii_lowercase();
        match (field, value.as_str()) {
            ("order", _) => match SortKey::parse(&value) {
                Some(key) => self.out.order = Some(key),
                None => self.warn(format!(
                    "unknown order `{value}` (expected name, cost, set, released or rarity): ignored"
                )),
            },
            ("direction", "asc") => self.out.descending = false,
            ("direction", "desc") => self.out.descending = true,
            ("unique", "prints") => self.out.prints = true,
            ("unique", "cards") => self.out.prints = false,
            _ => self.warn(format!("unknown {field} `{value}`: ignored")),
        }
    }

    fn text_field(&mut self, def: &FieldDef, term: &Term, negated: bool) -> Matcher {
        let target = Target::Field(def.key);
        let value = def.normalize.apply(&fold(&term.value));
        Matcher::pred(match (term.form, term.op) {
            (Form::Regex, _) => match regex_for(&term.value) {
                Ok(re) => Pred::Regex(target, re),
                Err(_) => return Matcher::Nothing,
            },
            (Form::Bare, Op::Has) if def.key == FieldKey::Name => {
                let typos = (self.typos)(&value);
                self.rank(&value, Some(&typos), negated);
                Pred::Word {
                    typos,
                    word: Needle::new(&value),
                    with_text: false,
                }
            }
            (Form::Bare | Form::Quoted, Op::Has) => {
                if def.key == FieldKey::Name {
                    self.rank(&value, None, negated);
                }
                Pred::Contains(target, Needle::new(&value))
            }
            (Form::Exact, _) | (_, Op::Eq) => Pred::Equals(target, value),
            (_, Op::Ne) => Pred::NotEquals(target, value),
            (_, op) => {
                let Some(order) = def.order else {
                    self.warn(format!(
                        "`{}` has no ordered values, so `{}` matches no cards",
                        def.name,
                        op.as_str()
                    ));
                    return Matcher::Nothing;
                };
                let Some(rank) = rank_in(order, &term.value) else {
                    self.warn(format!(
                        "`{}` is not one of the ordered values of `{}`: the comparison matches no cards",
                        term.value, def.name
                    ));
                    return Matcher::Nothing;
                };
                Pred::Ranked {
                    key: def.key,
                    order: order
                        .iter()
                        .map(|o| def.normalize.apply(&fold(o)))
                        .collect(),
                    op,
                    rank,
                }
            }
        })
    }

    fn number_field(&mut self, def: &FieldDef, term: &Term) -> Matcher {
        if term.form == Form::Regex {
            return match regex_for(&term.value) {
                Ok(re) => Matcher::pred(Pred::NumberRegex(def.key, re)),
                Err(_) => Matcher::Nothing,
            };
        }
        match term.value.trim().parse::<i64>() {
            Ok(n) => Matcher::pred(Pred::Number(def.key, number_op(term), n)),
            Err(_) => {
                self.warn(format!(
                    "`{}` takes a number, not `{}`: the term matches no cards",
                    def.name, term.value
                ));
                Matcher::Nothing
            }
        }
    }

    fn cost_field(&mut self, def: &FieldDef, term: &Term) -> Matcher {
        if term.form != Form::Regex {
            if let Ok(n) = term.value.trim().parse::<i64>() {
                return Matcher::pred(Pred::Number(def.key, number_op(term), n));
            }
            if let Some(mix) = EnergyMix::parse(term.value.trim()) {
                return Matcher::pred(Pred::Cost(number_op(term), mix));
            }
        }
        self.warn(format!(
            "`{}` is not a number or energy symbols (capital R W L G P F D M Y N C, `*`, `{{Fire}}`): the term matches no cards",
            term.value
        ));
        Matcher::Nothing
    }
}

/// `:` and `:!` mean equal for numbers and costs.
fn number_op(term: &Term) -> Op {
    match term.op {
        Op::Has => Op::Eq,
        op => op,
    }
}
