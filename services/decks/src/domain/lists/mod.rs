//! Deck lists: reading what players paste (deck codes and text lists) into entries, and writing
//! a resolved deck back out in each format of `spec/turny/guide-deck-builder.md`.
//!
//! Reading and resolving are two steps, so the catalog can be plugged in between them:
//!
//! 1. [`import`] tries a game's formats in the documented order and returns the first that reads,
//!    as [`ListEntry`]s (a count and the [`CardText`] that names the card) plus every line it
//!    skipped, with its line number and the reason;
//! 2. [`ImportedList::resolve`] hands each [`CardText`] to a lookup the caller supplies (the
//!    decks service asks the catalog's `ResolveCardNames`) and moves every card it cannot find
//!    to the skipped lines, so nothing disappears silently.
//!
//! [`export`] writes a deck whose cards are already resolved ([`DeckCard`]) in any format.
//! Sorting cards into piles by card type is left to the caller, which knows the types.

mod line;
mod piltover_list;
mod ptcg_live;
mod share_code;
mod turny_list;

#[cfg(test)]
mod tests;

use std::fmt;

use super::codes::riftbound::{self, RiftboundCardCode};
use super::codes::{CardCount, DeckCodeError, lor};

pub use proto::game::Game;

/// Returns the formats [`import`] tries for this game, in the documented order.
pub fn import_formats(game: Game) -> &'static [ListFormat] {
    match game {
        Game::Lor => &[ListFormat::LorCode],
        Game::Pokemon => &[ListFormat::Ptcg1, ListFormat::PtcgLive],
        Game::Riftbound => &[
            ListFormat::Rift1,
            ListFormat::PiltoverCode,
            ListFormat::PiltoverList,
            ListFormat::TurnyList,
        ],
    }
}

/// A deck code or deck-list format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListFormat {
    /// The Legends of Runeterra deck code.
    LorCode,
    /// Turny.gg's Pokémon code: `PTCG1.sv8:2x76,4x5.sve:4x5`.
    Ptcg1,
    /// The Pokémon TCG Live list: `4 Latias ex SSP 76`, under section headers.
    PtcgLive,
    /// Turny.gg's Riftbound code: the `PTCG1` grammar, upper-case sets, sideboard after `SB`.
    Rift1,
    /// The Piltover Archive binary code.
    PiltoverCode,
    /// Piltover Archive's list: `Legend:`, `MainDeck:`… sections of `<count> <name>` lines.
    PiltoverList,
    /// The list Turny.gg exported before: `<count> <name> <SET> <number>`.
    TurnyList,
}

impl ListFormat {
    /// Every format.
    pub const ALL: [ListFormat; 7] = [
        ListFormat::LorCode,
        ListFormat::Ptcg1,
        ListFormat::PtcgLive,
        ListFormat::Rift1,
        ListFormat::PiltoverCode,
        ListFormat::PiltoverList,
        ListFormat::TurnyList,
    ];

    /// Returns the format with this API id (`ptcg-live`), if there is one.
    pub fn from_id(id: &str) -> Option<ListFormat> {
        ListFormat::ALL.into_iter().find(|format| format.id() == id)
    }

    /// Returns the format's id in the API (`ptcg-live`, `piltover-list`, …).
    pub fn id(self) -> &'static str {
        match self {
            ListFormat::LorCode => "lor-code",
            ListFormat::Ptcg1 => "ptcg1",
            ListFormat::PtcgLive => "ptcg-live",
            ListFormat::Rift1 => "rift1",
            ListFormat::PiltoverCode => "piltover-code",
            ListFormat::PiltoverList => "piltover-list",
            ListFormat::TurnyList => "turny-list",
        }
    }

    /// Returns the game the format belongs to.
    pub fn game(self) -> Game {
        match self {
            ListFormat::LorCode => Game::Lor,
            ListFormat::Ptcg1 | ListFormat::PtcgLive => Game::Pokemon,
            ListFormat::Rift1
            | ListFormat::PiltoverCode
            | ListFormat::PiltoverList
            | ListFormat::TurnyList => Game::Riftbound,
        }
    }

    /// Returns whether the format has a place for a sideboard.
    pub fn has_sideboard(self) -> bool {
        matches!(
            self,
            ListFormat::Rift1 | ListFormat::PiltoverCode | ListFormat::PiltoverList
        )
    }
}

impl fmt::Display for ListFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What a line of a deck list says a card is, before the catalog resolves it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CardText {
    /// A card name only: a Piltover Archive list line, or basic energy without set and number.
    Name(String),
    /// A set and collector number as a list writes them, after the card's name when the list
    /// names it: `Latias ex SSP 76`, `Charm OGN 43`.
    Printing {
        /// The name before the set, if the list writes one.
        name: Option<String>,
        /// The set as written (Pokémon TCG Live abbreviation, Riftbound set code).
        set: String,
        /// The collector number as written.
        number: String,
    },
    /// A catalog printing ref as a share code writes it: `sv8-76`, `ogn-042-298`.
    Ref(String),
    /// A card code from a binary deck code: `01DE012` (LoR), `OGN-042a` (Piltover Archive).
    Code(String),
}

impl CardText {
    /// Returns the line to ask the catalog's name resolver about: the name, `Name SET NUMBER`,
    /// or `SET NUMBER` (leading zeros and a ref's printed-total suffix dropped); a LoR card
    /// code as it is.
    pub fn query(&self) -> String {
        match self {
            CardText::Name(name) => name.clone(),
            CardText::Printing {
                name: Some(name),
                set,
                number,
            } => format!("{name} {set} {number}"),
            CardText::Printing {
                name: None,
                set,
                number,
            } => format!("{set} {number}"),
            CardText::Ref(_) | CardText::Code(_) => match self.set_and_number() {
                Some((set, number)) => format!("{set} {number}"),
                None => self.to_string(),
            },
        }
    }

    /// Returns the set (upper case) and the collector number (no leading zeros, no printed
    /// total) the text names, if it names a printing: `ogn-042-298`, `OGN-042` and `OGN 42`
    /// all give `("OGN", "42")`.
    pub fn set_and_number(&self) -> Option<(String, String)> {
        let (set, number) = match self {
            CardText::Name(_) => return None,
            CardText::Printing { set, number, .. } => (set.as_str(), number.as_str()),
            CardText::Ref(text) | CardText::Code(text) => {
                let (set, rest) = text.split_once('-')?;
                (set, rest.split('-').next().unwrap_or(rest))
            }
        };
        Some((set.to_uppercase(), line::trim_number(number)))
    }
}

impl fmt::Display for CardText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardText::Ref(text) | CardText::Code(text) => f.write_str(text),
            CardText::Name(_) | CardText::Printing { .. } => f.write_str(&self.query()),
        }
    }
}

/// Where a list puts a card: its section header, or what a code says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// The main deck, with no finer zone (codes, lists without headers).
    Main,
    /// Pokémon TCG Live's `Pokémon:`.
    Pokemon,
    /// Pokémon TCG Live's `Trainer:`.
    Trainer,
    /// Pokémon TCG Live's `Energy:`.
    Energy,
    /// Riftbound's Legend.
    Legend,
    /// Piltover Archive's `Champion:`: main-deck cards, the first of them the chosen champion.
    Champion,
    /// Riftbound's main deck (`MainDeck:`, `Main Deck (40)`).
    MainDeck,
    /// Riftbound's Battlefields.
    Battlefields,
    /// Riftbound's rune deck (`Runes:`).
    Runes,
    /// The sideboard.
    Sideboard,
}

impl Section {
    /// Returns whether cards in this section are outside the main deck.
    pub fn is_sideboard(self) -> bool {
        self == Section::Sideboard
    }
}

/// One card a list names, with how many copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    /// The line it was read from, counting from 1 (1 for every card of a code).
    pub line: usize,
    /// How many copies, at least 1.
    pub count: u32,
    /// What names the card.
    pub card: CardText,
    /// Where the list puts it.
    pub section: Section,
}

/// Why a line was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// Neither a card line nor a section header.
    #[error("the line does not start with a copy count")]
    NoCount,
    /// A copy count of 0.
    #[error("0 copies")]
    ZeroCount,
    /// A count too large to be a number of copies.
    #[error("copy count `{0}` is out of range")]
    CountOutOfRange(String),
    /// A count with nothing after it.
    #[error("no card after the copy count")]
    NoCard,
    /// A Turny.gg list line without `<SET> <number>` at its end.
    #[error("no set and collector number at the end of the line")]
    NoSetAndNumber,
    /// A section header the format does not know; its cards go where the previous one did.
    #[error("unknown section `{0}`")]
    UnknownSection(String),
    /// A part of a share code that is not `<count>x<number>` or `<SET>:<cards>`.
    #[error("`{0}` is not a share-code entry")]
    BadShareCodeEntry(String),
    /// The card resolver did not find the card.
    #[error("card not found: {0}")]
    NotFound(String),
    /// A list that lost its line breaks, split into lines, in which some card was not found.
    #[error(
        "a list without line breaks is read only when every card in it is found; not found: {0}"
    )]
    UnsplittableLine(String),
}

/// A line the import skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLine {
    /// The line number, counting from 1.
    pub line: usize,
    /// The line as pasted (trimmed), or the part of a code.
    pub text: String,
    /// Why it was skipped.
    pub reason: SkipReason,
}

/// What [`import`] read, before the cards are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedList {
    /// The format that read the text.
    pub format: ListFormat,
    /// The cards, in the order of the text.
    pub entries: Vec<ListEntry>,
    /// The champion the deck chose (Piltover Archive code and list), also in `entries`.
    pub chosen_champion: Option<CardText>,
    /// Lines that were neither cards, headers nor blank.
    pub skipped: Vec<SkippedLine>,
    /// Set when the text was one line holding several cards (a list that lost its line
    /// breaks): the split stands only if every card resolves, as the guide says.
    pub split_from_one_line: Option<String>,
}

/// A card of an imported list, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedEntry<R> {
    /// The line it was read from.
    pub line: usize,
    /// How many copies.
    pub count: u32,
    /// Where the list put it.
    pub section: Section,
    /// What the resolver found.
    pub card: R,
}

/// An imported list whose cards have been looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedList<R> {
    /// The format that read the text.
    pub format: ListFormat,
    /// The cards found.
    pub entries: Vec<ResolvedEntry<R>>,
    /// The chosen champion, when the list names one and it was found.
    pub chosen_champion: Option<R>,
    /// Every line skipped, unreadable or not found, in line order.
    pub skipped: Vec<SkippedLine>,
}

impl ImportedList {
    /// Looks every card up with `find` (which returns what it found, or why not) and lists each
    /// card it cannot find as a skipped line.
    ///
    /// For a list split from one line, any card not found rejects the whole split: the line is
    /// skipped and no card of it is kept.
    pub fn resolve<R>(
        self,
        mut find: impl FnMut(&CardText) -> Result<R, String>,
    ) -> ResolvedList<R> {
        let mut entries = Vec::with_capacity(self.entries.len());
        let mut skipped = self.skipped;
        let mut missing = Vec::new();
        for entry in self.entries {
            match find(&entry.card) {
                Ok(card) => entries.push(ResolvedEntry {
                    line: entry.line,
                    count: entry.count,
                    section: entry.section,
                    card,
                }),
                Err(reason) => {
                    missing.push(entry.card.to_string());
                    skipped.push(SkippedLine {
                        line: entry.line,
                        text: format!("{} {}", entry.count, entry.card),
                        reason: SkipReason::NotFound(reason),
                    });
                }
            }
        }
        let chosen_champion = self.chosen_champion.and_then(|card| find(&card).ok());
        if let Some(text) = self.split_from_one_line
            && !missing.is_empty()
        {
            return ResolvedList {
                format: self.format,
                entries: Vec::new(),
                chosen_champion: None,
                skipped: vec![SkippedLine {
                    line: 1,
                    text,
                    reason: SkipReason::UnsplittableLine(missing.join(", ")),
                }],
            };
        }
        skipped.sort_by_key(|s| s.line);
        ResolvedList {
            format: self.format,
            entries,
            chosen_champion,
            skipped,
        }
    }
}

/// Why a text could not be imported or a deck exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// Nothing but whitespace was pasted.
    #[error("the deck text is empty")]
    Empty,
    /// No format of the game reads the text.
    #[error("no {game} format reads this text (tried {tried})")]
    Unreadable {
        /// The game's name.
        game: &'static str,
        /// The formats tried, comma separated.
        tried: String,
    },
    /// The text is a deck code that does not decode.
    #[error(transparent)]
    DeckCode(#[from] DeckCodeError),
    /// A format asked of the wrong game.
    #[error("{format} is not a {game} format")]
    WrongGame {
        /// The format asked for.
        format: ListFormat,
        /// The game's name.
        game: &'static str,
    },
    /// A card ref the format cannot write.
    #[error("`{reference}` cannot be written in {format}")]
    UnwritableCard {
        /// The card's ref.
        reference: String,
        /// The format.
        format: ListFormat,
    },
}

/// Reads a deck code or list of `game`, trying the game's formats in the documented order
/// ([`Game::import_formats`]) and keeping the first that reads.
///
/// A text list "reads" when at least one of its lines is a card; a code reads when it decodes.
pub fn import(game: Game, text: &str) -> Result<ImportedList, ListError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ListError::Empty);
    }
    match game {
        Game::Lor => Ok(from_code(ListFormat::LorCode, lor_entries(trimmed)?, None)),
        Game::Pokemon => {
            if let Some(list) = share_code::read(ListFormat::Ptcg1, trimmed) {
                return Ok(list);
            }
            ptcg_live::read(text).ok_or_else(|| unreadable(game))
        }
        Game::Riftbound => {
            if let Some(list) = share_code::read(ListFormat::Rift1, trimmed) {
                return Ok(list);
            }
            let code_error = if line::is_one_word(trimmed) {
                match riftbound::decode(trimmed) {
                    Ok(decoded) => return Ok(piltover_code_list(decoded.deck)),
                    Err(err) => Some(err),
                }
            } else {
                None
            };
            if let Some(list) = piltover_list::read(text) {
                return Ok(list);
            }
            if let Some(list) = turny_list::read(text) {
                return Ok(list);
            }
            // One word that is no list: it was meant as a code, so say what is wrong with it.
            Err(code_error.map_or_else(|| unreadable(game), ListError::DeckCode))
        }
    }
}

fn unreadable(game: Game) -> ListError {
    ListError::Unreadable {
        game: game.name(),
        tried: import_formats(game)
            .iter()
            .map(|f| f.id())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn lor_entries(code: &str) -> Result<Vec<ListEntry>, DeckCodeError> {
    let deck = lor::decode(code)?.deck;
    Ok(code_entries(&deck.main, Section::Main))
}

fn code_entries<C: ToString>(cards: &[CardCount<C>], section: Section) -> Vec<ListEntry> {
    cards
        .iter()
        .map(|card| ListEntry {
            line: 1,
            count: card.count,
            card: CardText::Code(card.card_code.to_string()),
            section,
        })
        .collect()
}

fn piltover_code_list(deck: riftbound::RiftboundDeck) -> ImportedList {
    let mut entries = code_entries(&deck.main, Section::Main);
    entries.extend(code_entries(&deck.sideboard, Section::Sideboard));
    // Additional legends (version 6) are part of the deck: one copy each.
    entries.extend(deck.additional_legends.iter().map(|legend| ListEntry {
        line: 1,
        count: 1,
        card: CardText::Code(legend.to_string()),
        section: Section::Legend,
    }));
    from_code(
        ListFormat::PiltoverCode,
        entries,
        deck.chosen_champion.map(|c| CardText::Code(c.to_string())),
    )
}

fn from_code(
    format: ListFormat,
    entries: Vec<ListEntry>,
    chosen_champion: Option<CardText>,
) -> ImportedList {
    ImportedList {
        format,
        entries,
        chosen_champion,
        skipped: Vec::new(),
        split_from_one_line: None,
    }
}

/// A card of a resolved deck, with what each format needs to write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckCard {
    /// How many copies.
    pub count: u32,
    /// Its pile (Riftbound) or Pokémon TCG Live category; [`Section::Sideboard`] for the
    /// sideboard.
    pub section: Section,
    /// The card's name as lists write it.
    pub name: String,
    /// The printing ref: `sv8-76` (Pokémon set id, number), `ogn-042-298` (Riftbound), or the
    /// LoR card code.
    pub reference: String,
    /// The set as Pokémon TCG Live writes it (`SSP`), when it differs from the ref's set.
    pub list_set: Option<String>,
}

impl DeckCard {
    /// Returns the ref's set and the rest of the ref: `sv8-76` → (`sv8`, `76`).
    fn set_and_tail(&self, format: ListFormat) -> Result<(&str, &str), ListError> {
        split_ref(&self.reference, format)
    }
}

/// Splits a printing ref at its first `-`: `sv8-76` → (`sv8`, `76`).
fn split_ref(reference: &str, format: ListFormat) -> Result<(&str, &str), ListError> {
    reference
        .split_once('-')
        .filter(|(set, tail)| !set.is_empty() && !tail.is_empty())
        .ok_or_else(|| ListError::UnwritableCard {
            reference: reference.to_owned(),
            format,
        })
}

/// A resolved deck to export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportDeck {
    /// Every card, main deck and sideboard, in the order to write them within a section.
    pub cards: Vec<DeckCard>,
    /// The ref of the chosen champion (Riftbound), one of the main-deck cards.
    pub chosen_champion: Option<String>,
}

/// Writes a deck in `format`.
///
/// Formats without a sideboard add it to the main deck (codes) or leave it out (the old Turny
/// list, as it always did); the Piltover Archive code folds it into the main deck, as the guide
/// documents.
pub fn export(format: ListFormat, deck: &ExportDeck) -> Result<String, ListError> {
    match format {
        ListFormat::LorCode => {
            let main = deck
                .cards
                .iter()
                .map(|card| {
                    Ok(CardCount::new(
                        card.reference.parse().map_err(ListError::DeckCode)?,
                        card.count,
                    ))
                })
                .collect::<Result<Vec<_>, ListError>>()?;
            Ok(lor::encode(&lor::LorDeck {
                main,
                sideboard: Vec::new(),
            })?)
        }
        ListFormat::Ptcg1 | ListFormat::Rift1 => share_code::write(format, deck),
        ListFormat::PtcgLive => ptcg_live::write(deck),
        ListFormat::PiltoverList => Ok(piltover_list::write(deck)),
        ListFormat::TurnyList => turny_list::write(deck),
        ListFormat::PiltoverCode => {
            let main = deck
                .cards
                .iter()
                .map(|card| {
                    Ok(CardCount::new(
                        piltover_card_code(&card.reference, format)?,
                        card.count,
                    ))
                })
                .collect::<Result<Vec<_>, ListError>>()?;
            let chosen_champion = deck
                .chosen_champion
                .as_deref()
                .map(|reference| piltover_card_code(reference, format))
                .transpose()?;
            // The sideboard is folded into the main deck, as the guide documents for now.
            Ok(riftbound::encode(&riftbound::RiftboundDeck {
                main,
                sideboard: Vec::new(),
                chosen_champion,
                additional_legends: Vec::new(),
            })?)
        }
    }
}

/// `ogn-042-298` → `OGN-042`, `ogn-007a-298` → `OGN-007a`, `ven-r02` → `VEN-R02`.
fn piltover_card_code(reference: &str, format: ListFormat) -> Result<RiftboundCardCode, ListError> {
    let (set, tail) = split_ref(reference, format)?;
    let number = tail.split('-').next().unwrap_or(tail);
    let letters = number.chars().take_while(char::is_ascii_alphabetic).count();
    let (prefix, rest) = number.split_at(letters);
    Ok(format!("{}-{}{rest}", set.to_uppercase(), prefix.to_uppercase()).parse()?)
}
