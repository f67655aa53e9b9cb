//! A compiled query: a tree of predicates over a card's [`CardDoc`], evaluated per card (any
//! printing may satisfy a per-printing field) or per printing (with `unique:prints`).

use std::sync::Arc;

use memchr::memmem::Finder;
use regex::Regex;

use super::cost::{self, EnergyMix};
use super::games::{CardDoc, FieldKey, PrintDoc};
use super::query::Op;
use super::text::{BigramProbe, Folded};

/// What a text predicate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The name.
    Name,
    /// The rules text.
    Text,
    /// Name or rules text (a plain quoted word).
    NameOrText,
    /// Name and rules text as one string (a plain `!word` or `/re/`).
    NameAndText,
    /// A field's values.
    Field(FieldKey),
}

/// One test on a card.
#[derive(Debug)]
pub enum Pred {
    /// A plain word or `n:word`: a name within the typo rule (`typos[card]` is precomputed),
    /// a name containing the word, or (plain words) rules text containing it.
    Word {
        /// Folded word.
        word: Needle,
        /// Per card: the fewest typos of a name key, `u8::MAX` when none is close.
        typos: Arc<[u8]>,
        /// True for plain words (rules text counts too).
        with_text: bool,
    },
    /// Some value contains the needle (folded, normalised).
    Contains(Target, Needle),
    /// Some value equals the value (folded, normalised).
    Equals(Target, String),
    /// The field has a value and none equals the value.
    NotEquals(Target, String),
    /// Some original value matches.
    Regex(Target, Regex),
    /// Some value's position in the field's ordered list compares with `rank`.
    Ranked {
        /// The field.
        key: FieldKey,
        /// The ordered list, folded and normalised.
        order: Vec<String>,
        /// Comparison.
        op: Op,
        /// Position of the typed value.
        rank: usize,
    },
    /// The number compares with the value.
    Number(FieldKey, Op, i64),
    /// The number, as decimal text, matches.
    NumberRegex(FieldKey, Regex),
    /// Pokémon attack costs compare with the typed mix.
    Cost(Op, EnergyMix),
    /// The card is in the precomputed set of a shortcut.
    Shortcut(usize),
}

/// A folded text to look for, with its precompiled substring searcher.
#[derive(Debug, Clone)]
pub struct Needle(Finder<'static>, BigramProbe);

impl Needle {
    /// Prepares a search for `text`.
    pub fn new(text: &str) -> Self {
        Self(
            Finder::new(text.as_bytes()).into_owned(),
            BigramProbe::of(text),
        )
    }

    /// True when `haystack` contains the needle.
    pub fn is_in(&self, haystack: &str) -> bool {
        self.0.find(haystack.as_bytes()).is_some()
    }

    /// True when the card's rules text contains the needle (its byte pairs checked first).
    pub fn is_in_text(&self, doc: &CardDoc) -> bool {
        doc.text_bigrams.may_contain(&self.1) && self.is_in(&doc.text.folded)
    }
}

/// A compiled query tree.
#[derive(Debug)]
pub enum Matcher {
    /// Every card.
    All,
    /// No card.
    Nothing,
    /// Every child.
    And(Vec<Matcher>),
    /// Any child.
    Or(Vec<Matcher>),
    /// Not the child.
    Not(Box<Matcher>),
    /// A test (boxed: predicates are much larger than the other variants).
    Pred(Box<Pred>),
}

/// What one evaluation sees: the card, its index and, per printing, the printing.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// Position of the card in the index.
    pub card: usize,
    /// Its document.
    pub doc: &'a CardDoc,
    /// The printing under test, or `None` to let any printing match.
    pub print: Option<&'a PrintDoc>,
    /// Shortcut membership of this card, by shortcut.
    pub shortcuts: &'a [bool],
}

impl Matcher {
    /// Wraps a predicate.
    pub fn pred(pred: Pred) -> Self {
        Matcher::Pred(Box::new(pred))
    }

    /// Evaluates the tree on one row.
    pub fn matches(&self, row: &Row<'_>) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Nothing => false,
            Matcher::And(all) => all.iter().all(|m| m.matches(row)),
            Matcher::Or(any) => any.iter().any(|m| m.matches(row)),
            Matcher::Not(inner) => !inner.matches(row),
            Matcher::Pred(pred) => pred.matches(row),
        }
    }
}

impl Pred {
    fn matches(&self, row: &Row<'_>) -> bool {
        let doc = row.doc;
        match self {
            Pred::Word {
                word,
                typos,
                with_text,
            } => {
                typos[row.card] != u8::MAX
                    || word.is_in(&doc.name.folded)
                    || (*with_text && word.is_in_text(doc))
            }
            Pred::Contains(target, needle) => any_value(row, *target, |v| needle.is_in(&v.folded)),
            Pred::Equals(target, value) => any_value(row, *target, |v| v.folded == *value),
            Pred::NotEquals(target, value) => {
                any_value(row, *target, |_| true)
                    && !any_value(row, *target, |v| v.folded == *value)
            }
            Pred::Regex(target, re) => any_value(row, *target, |v| re.is_match(&v.raw)),
            Pred::Ranked {
                key,
                order,
                op,
                rank,
            } => any_value(row, Target::Field(*key), |v| {
                order
                    .iter()
                    .position(|o| *o == v.folded)
                    .is_some_and(|have| op.compare(have, *rank))
            }),
            Pred::Number(key, op, n) => {
                doc.numbers[key.slot()].is_some_and(|have| op.compare(have, *n))
            }
            Pred::NumberRegex(key, re) => {
                doc.numbers[key.slot()].is_some_and(|have| re.is_match(&have.to_string()))
            }
            Pred::Cost(op, mix) => cost::card_matches(&doc.attack_costs, *op, mix),
            Pred::Shortcut(i) => row.shortcuts[*i],
        }
    }
}

/// True when any value of `target` on the row satisfies `test`.
fn any_value(row: &Row<'_>, target: Target, test: impl Fn(&Folded) -> bool) -> bool {
    let doc = row.doc;
    match target {
        Target::Name => test(&doc.name),
        Target::Text => test(&doc.text),
        Target::NameOrText => test(&doc.name) || test(&doc.text),
        Target::NameAndText => test(&Folded {
            raw: format!("{}\n{}", doc.name.raw, doc.text.raw),
            folded: format!("{}\n{}", doc.name.folded, doc.text.folded),
        }),
        Target::Field(key) if key.is_per_printing() => match row.print {
            Some(print) => CardDoc::printing_value(print, key).is_some_and(&test),
            None => doc
                .printings
                .iter()
                .any(|print| CardDoc::printing_value(print, key).is_some_and(&test)),
        },
        Target::Field(FieldKey::Name) => test(&doc.name),
        Target::Field(FieldKey::Text) => test(&doc.text),
        Target::Field(key) => doc.values[key.slot()].iter().any(test),
    }
}
