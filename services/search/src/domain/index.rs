//! The search index of one game: the cards with their precomputed [`CardDoc`]s, a dictionary
//! of name words for typo matching, and shortcut membership; `search` and `explain` run
//! queries on it.

use std::collections::HashMap;
use std::sync::Arc;

use proto::catalog::v1::{Card, CardPrinting, CardSet};
use proto::game::Game;
use serde::Serialize;

use super::compile::{Compiled, compile};
use super::games::{self, CardDoc, FieldKey, GameSpec, SetRanks};
use super::matcher::Row;
use super::order::{SortKey, compare_values, name_closeness, sort_value};
use super::query::{Node, QueryError, parse};
use super::text::fold;
use super::typo::{allowed_typos, typos_within};

/// Results per page when the caller asks for 0.
pub const DEFAULT_PAGE_SIZE: usize = 60;

/// The most results one page holds.
pub const MAX_PAGE_SIZE: usize = 1_000;

/// Why a search was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The query does not parse.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The page token is not one this index gave out.
    #[error("invalid page token `{0}`")]
    PageToken(String),
}

/// One result row: a card, and with `unique:prints` the printing the row stands for.
#[derive(Debug, Clone, Copy)]
pub struct Hit<'a> {
    /// The card identity.
    pub card: &'a Card,
    /// The printing, with `unique:prints` (LoR cards have none).
    pub printing: Option<&'a CardPrinting>,
}

/// One page of results.
#[derive(Debug)]
pub struct Results<'a> {
    /// The page's rows, in order.
    pub cards: Vec<Hit<'a>>,
    /// Rows matching the query across all pages.
    pub total: usize,
    /// Warnings (unknown fields and shortcuts, unusable values), each once.
    pub warnings: Vec<String>,
    /// Token of the next page, when there is one.
    pub next_page_token: Option<String>,
}

/// What a query means, for the frontend's query help.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// The query printed back in canonical form.
    pub query: String,
    /// The parsed tree; `None` for an empty query (every card).
    pub tree: Option<Node>,
    /// The warnings a search would return.
    pub warnings: Vec<String>,
    /// The picked sort, if any.
    pub order: Option<SortKey>,
    /// True with `direction:desc`.
    pub descending: bool,
    /// True with `unique:prints`.
    pub unique_prints: bool,
    /// True when results are ranked by name closeness.
    pub ranked_by_name: bool,
}

/// The search index of one game's catalog.
#[derive(Debug)]
pub struct Index {
    game: Game,
    spec: &'static GameSpec,
    cards: Vec<Card>,
    docs: Vec<CardDoc>,
    /// Every distinct name key, as characters, with the cards whose names have it.
    name_keys: Vec<(Vec<char>, Vec<u32>)>,
    /// Shortcut membership, `shortcuts.len()` flags per card.
    shortcut_flags: Vec<bool>,
    rarity_order: Vec<String>,
}

impl Index {
    /// Builds the index of `game` from its cards (in catalog order) and its sets (in release
    /// order, for `order:set` and `order:released`).
    pub fn new(game: Game, cards: Vec<Card>, sets: &[CardSet]) -> Self {
        let spec = games::spec(game);
        let ranks = SetRanks::new(sets.iter().map(|set| set.code.as_str()));
        let docs: Vec<CardDoc> = cards
            .iter()
            .map(|card| {
                let mut doc = (spec.document)(card, &ranks);
                doc.normalize(spec);
                doc
            })
            .collect();
        let mut by_key: HashMap<&str, Vec<u32>> = HashMap::new();
        for (i, doc) in docs.iter().enumerate() {
            for key in &doc.name_keys {
                by_key.entry(key.as_str()).or_default().push(i as u32);
            }
        }
        let mut name_keys: Vec<(Vec<char>, Vec<u32>)> = by_key
            .into_iter()
            .map(|(key, cards)| (key.chars().collect(), cards))
            .collect();
        name_keys.sort();
        let shortcut_flags = cards
            .iter()
            .flat_map(|card| spec.shortcuts.iter().map(move |def| (def.test)(card)))
            .collect();
        let rarity_order = spec
            .field_for(FieldKey::Rarity)
            .and_then(|def| def.order)
            .unwrap_or_default()
            .iter()
            .map(|r| fold(r))
            .collect();
        Self {
            game,
            spec,
            cards,
            docs,
            name_keys,
            shortcut_flags,
            rarity_order,
        }
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The cards, in catalog order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Runs `query` and returns the page after `page_token` (empty for the first page) of at
    /// most `page_size` rows (0 for [`DEFAULT_PAGE_SIZE`]).
    pub fn search(
        &self,
        query: &str,
        page_size: usize,
        page_token: &str,
    ) -> Result<Results<'_>, SearchError> {
        let offset = if page_token.is_empty() {
            0
        } else {
            page_token
                .parse::<usize>()
                .map_err(|_| SearchError::PageToken(page_token.to_owned()))?
        };
        let page_size = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n => n.min(MAX_PAGE_SIZE),
        };
        let compiled = self.compile(query)?;
        let rows = self.run(&compiled);
        let total = rows.len();
        let end = offset.saturating_add(page_size).min(total);
        let cards = rows
            .get(offset.min(total)..end)
            .unwrap_or_default()
            .iter()
            .map(|&(card, print)| Hit {
                card: &self.cards[card],
                printing: print.and_then(|p| self.cards[card].printings.get(p)),
            })
            .collect();
        Ok(Results {
            cards,
            total,
            warnings: compiled.warnings,
            next_page_token: (end < total).then(|| end.to_string()),
        })
    }

    /// Parses and resolves `query` without running it.
    pub fn explain(&self, query: &str) -> Result<Explanation, QueryError> {
        let parsed = parse(query)?;
        let compiled = compile(&parsed, self.spec, &|word| self.typo_table(word));
        Ok(Explanation {
            query: parsed.to_string(),
            tree: parsed.root,
            warnings: compiled.warnings,
            order: compiled.order,
            descending: compiled.descending,
            unique_prints: compiled.prints,
            ranked_by_name: compiled.order.is_none() && !compiled.rank_words.is_empty(),
        })
    }

    fn compile(&self, query: &str) -> Result<Compiled, QueryError> {
        let parsed = parse(query)?;
        Ok(compile(&parsed, self.spec, &|word| self.typo_table(word)))
    }

    /// For each card, the fewest typos between `word` and one of its name keys under the
    /// typo rule, `u8::MAX` when there is none.
    fn typo_table(&self, word: &str) -> Arc<[u8]> {
        let mut table = vec![u8::MAX; self.cards.len()];
        let typed: Vec<char> = word.chars().collect();
        let limit = allowed_typos(typed.len());
        for (key, cards) in &self.name_keys {
            if key.len().abs_diff(typed.len()) > limit {
                continue;
            }
            if let Some(typos) = typos_within(&typed, key, limit) {
                let typos = typos as u8;
                for &card in cards {
                    let slot = &mut table[card as usize];
                    *slot = (*slot).min(typos);
                }
            }
        }
        table.into()
    }

    /// Returns the matching rows `(card, printing)` in result order.
    fn run(&self, compiled: &Compiled) -> Vec<(usize, Option<usize>)> {
        let stride = self.spec.shortcuts.len();
        let mut rows = Vec::new();
        for (i, doc) in self.docs.iter().enumerate() {
            let shortcuts = &self.shortcut_flags[i * stride..(i + 1) * stride];
            if compiled.prints {
                for (p, print) in doc.printings.iter().enumerate() {
                    let row = Row {
                        card: i,
                        doc,
                        print: Some(print),
                        shortcuts,
                    };
                    if compiled.matcher.matches(&row) {
                        rows.push((i, print.printing.map(|_| p)));
                    }
                }
            } else {
                let row = Row {
                    card: i,
                    doc,
                    print: None,
                    shortcuts,
                };
                if compiled.matcher.matches(&row) {
                    rows.push((i, None));
                }
            }
        }
        if let Some(key) = compiled.order {
            let mut keyed: Vec<_> = rows
                .into_iter()
                .map(|(card, print)| {
                    let doc = &self.docs[card];
                    let print_doc = print.and_then(|p| doc.printings.get(p));
                    (
                        sort_value(key, doc, print_doc, &self.rarity_order),
                        card,
                        print,
                    )
                })
                .collect();
            // Stable: ties keep catalog order.
            keyed.sort_by(|a, b| compare_values(&a.0, &b.0, compiled.descending));
            return keyed.into_iter().map(|(_, c, p)| (c, p)).collect();
        }
        if !compiled.rank_words.is_empty() {
            let mut scored: Vec<_> = rows
                .into_iter()
                .map(|(card, print)| {
                    let doc = &self.docs[card];
                    let closeness: u32 = compiled
                        .rank_words
                        .iter()
                        .map(|rank| {
                            let typos = rank.typos.as_ref().map(|table| table[card]);
                            name_closeness(doc, &rank.word, typos)
                        })
                        .sum();
                    let typed: usize = compiled
                        .rank_words
                        .iter()
                        .map(|rank| rank.word.chars().count())
                        .sum();
                    let extra = doc.name.folded.chars().count().abs_diff(typed);
                    ((closeness, extra), card, print)
                })
                .collect();
            scored.sort_by_key(|s| s.0);
            return scored.into_iter().map(|(_, c, p)| (c, p)).collect();
        }
        rows
    }
}
