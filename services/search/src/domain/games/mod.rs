//! The per-game half of the language: each game's fields (with aliases and kinds), its `is:`
//! shortcuts, and how one of its cards becomes a [`CardDoc`], the precomputed form the index
//! matches against. The tables mirror `spec/turny/reference-search-<game>.md` row by row.

pub mod lor;
pub mod pokemon;
pub mod riftbound;

use proto::catalog::v1::Card;
use proto::game::Game;

use super::cost::EnergyMix;
use super::text::{Bigrams, Folded, fold, name_keys};

/// Every field any game has; a game's table says which it offers and under what names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKey {
    /// The card's name.
    Name,
    /// Rules text.
    Text,
    /// Card type (LoR, Riftbound) or energy type (Pokémon).
    Type,
    /// Rarity (per printing).
    Rarity,
    /// Set code (per printing).
    Set,
    /// Mana or Energy cost; the attack cost in Pokémon.
    Cost,
    /// LoR region.
    Region,
    /// Keyword.
    Keyword,
    /// Supertype.
    Supertype,
    /// Pokémon hit points.
    Hp,
    /// Pokémon highest base damage.
    Damage,
    /// Pokémon evolution stage.
    Stage,
    /// Pokémon retreat cost.
    Retreat,
    /// Pokémon weakness.
    Weakness,
    /// Pokémon regulation mark (per printing).
    RegMark,
    /// Pokémon subtype.
    Subtype,
    /// Riftbound domain.
    Domain,
    /// Riftbound tag.
    Tag,
    /// Riftbound might.
    Might,
    /// Riftbound power cost.
    Power,
}

/// How many [`FieldKey`]s there are (the size of a [`CardDoc`]'s per-field arrays).
pub const FIELD_KEYS: usize = 20;

impl FieldKey {
    /// Returns the key's slot in a [`CardDoc`]'s arrays.
    pub fn slot(self) -> usize {
        self as usize
    }

    /// True for fields that belong to a printing rather than to the card.
    pub fn is_per_printing(self) -> bool {
        matches!(self, FieldKey::Set | FieldKey::Rarity | FieldKey::RegMark)
    }
}

/// How a field matches, as the pages' "Field kinds" table defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// Free text: `:` means contains (names also allow typos).
    Text,
    /// One of a set of values: `:` means contains; comparisons follow the listed order.
    Value,
    /// A number: `:` means equal; every comparison works.
    Number,
    /// Pokémon attack cost: a number (cheapest attack's total) or energy symbols.
    CostSymbols,
}

/// How a field's values and the typed value are made comparable beyond [`fold`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalize {
    /// Folding only.
    Plain,
    /// Spaces, `_` and `-` removed: LoR's one-word regions and keywords (`"shadow isles"`).
    JoinWords,
    /// Spaces and `-` become `_`: Riftbound keywords (`quick_draw`).
    Underscores,
}

impl Normalize {
    /// Normalises an already folded text.
    pub fn apply(self, folded: &str) -> String {
        match self {
            Normalize::Plain => folded.to_owned(),
            Normalize::JoinWords => folded
                .chars()
                .filter(|ch| !matches!(ch, ' ' | '_' | '-'))
                .collect(),
            Normalize::Underscores => folded
                .chars()
                .map(|ch| if matches!(ch, ' ' | '-') { '_' } else { ch })
                .collect(),
        }
    }
}

/// One row of a game's fields table.
#[derive(Debug)]
pub struct FieldDef {
    /// Full name (`type`).
    pub name: &'static str,
    /// Aliases (`t`).
    pub aliases: &'static [&'static str],
    /// Kind.
    pub kind: FieldKind,
    /// What it reads.
    pub key: FieldKey,
    /// The allowed values in order, when the page lists them (comparisons follow it).
    pub order: Option<&'static [&'static str]>,
    /// Extra normalisation of values.
    pub normalize: Normalize,
}

/// Returns a field row whose values need no extra normalisation (most rows of every table).
pub(super) const fn field(
    name: &'static str,
    aliases: &'static [&'static str],
    kind: FieldKind,
    key: FieldKey,
    order: Option<&'static [&'static str]>,
) -> FieldDef {
    FieldDef {
        name,
        aliases,
        kind,
        key,
        order,
        normalize: Normalize::Plain,
    }
}

/// One row of a game's shortcuts table.
#[derive(Debug)]
pub struct ShortcutDef {
    /// The name after `is:` (`"ace spec"`).
    pub name: &'static str,
    /// True when only this exact spelling selects it (`is:EX` versus `is:ex`).
    pub case_sensitive: bool,
    /// Whether a card is of this kind.
    pub test: fn(&Card) -> bool,
}

/// A game's language: fields, shortcuts and how cards are documented.
#[derive(Debug)]
pub struct GameSpec {
    /// The fields table.
    pub fields: &'static [FieldDef],
    /// The shortcuts table.
    pub shortcuts: &'static [ShortcutDef],
    /// Builds the searchable form of one card.
    pub document: fn(&Card, &SetRanks) -> CardDoc,
}

/// Returns the language of `game`.
pub fn spec(game: Game) -> &'static GameSpec {
    match game {
        Game::Lor => &lor::SPEC,
        Game::Pokemon => &pokemon::SPEC,
        Game::Riftbound => &riftbound::SPEC,
    }
}

impl GameSpec {
    /// Finds a field by name or alias, ignoring case.
    pub fn field(&self, typed: &str) -> Option<&'static FieldDef> {
        let typed = typed.to_ascii_lowercase();
        self.fields
            .iter()
            .find(|def| def.name == typed || def.aliases.contains(&typed.as_str()))
    }

    /// Finds a shortcut: an exact spelling first, then ignoring case among the shortcuts that
    /// are not case-sensitive (so `is:EX` is Pokémon-EX and `is:Ex` is Pokémon ex).
    pub fn shortcut(&self, typed: &str) -> Option<usize> {
        let typed = typed.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(found) = self.shortcuts.iter().position(|def| def.name == typed) {
            return Some(found);
        }
        let lower = typed.to_lowercase();
        self.shortcuts
            .iter()
            .position(|def| !def.case_sensitive && def.name.to_lowercase() == lower)
    }

    /// Returns the definition of the field reading `key`, when the game has one.
    pub fn field_for(&self, key: FieldKey) -> Option<&'static FieldDef> {
        self.fields.iter().find(|def| def.key == key)
    }
}

/// The release rank of each set code (position in the catalog's release-ordered set list).
#[derive(Debug, Default)]
pub struct SetRanks(pub std::collections::HashMap<String, usize>);

impl SetRanks {
    /// Ranks `codes` in the order given.
    pub fn new<'a>(codes: impl IntoIterator<Item = &'a str>) -> Self {
        Self(
            codes
                .into_iter()
                .enumerate()
                .map(|(rank, code)| (code.to_ascii_lowercase(), rank))
                .collect(),
        )
    }

    /// Returns the rank of `code`; unknown sets sort last.
    pub fn rank(&self, code: &str) -> usize {
        self.0
            .get(&code.to_ascii_lowercase())
            .copied()
            .unwrap_or(usize::MAX)
    }
}

/// One printing as the search sees it (LoR cards get one made from the card itself).
#[derive(Debug, Clone, Default)]
pub struct PrintDoc {
    /// Index into the card's `printings`, `None` for the card itself.
    pub printing: Option<usize>,
    /// Set code.
    pub set: Folded,
    /// Rarity, when known.
    pub rarity: Option<Folded>,
    /// Regulation mark, when known.
    pub regmark: Option<Folded>,
    /// Release date as `YYYY/MM/DD` (sorts as text), empty when unknown.
    pub released: String,
    /// Release rank of the set.
    pub set_rank: usize,
    /// Collector number.
    pub number: String,
}

/// The searchable form of one card, computed once when the index is built.
#[derive(Debug, Clone)]
pub struct CardDoc {
    /// Name.
    pub name: Folded,
    /// [`name_keys`] of the name, for typo matching and ranking.
    pub name_keys: Vec<String>,
    /// Rules text.
    pub text: Folded,
    /// Byte pairs of the folded rules text, to skip most substring scans.
    pub text_bigrams: Bigrams,
    /// Card-level text and value fields, by [`FieldKey::slot`].
    pub values: [Vec<Folded>; FIELD_KEYS],
    /// Number fields, by [`FieldKey::slot`].
    pub numbers: [Option<i64>; FIELD_KEYS],
    /// Pokémon: the energy mix of each attack.
    pub attack_costs: Vec<EnergyMix>,
    /// At least one.
    pub printings: Vec<PrintDoc>,
}

impl CardDoc {
    /// Starts the document of a card named `name` with rules text `text`.
    pub fn new(name: &str, text: String) -> Self {
        let name = Folded::new(name);
        let text = Folded::new(text);
        Self {
            name_keys: name_keys(&name.folded),
            name,
            text_bigrams: Bigrams::of(&text.folded),
            text,
            values: std::array::from_fn(|_| Vec::new()),
            numbers: [None; FIELD_KEYS],
            attack_costs: Vec::new(),
            printings: Vec::new(),
        }
    }

    /// Adds values to a card-level field.
    pub fn add<S: AsRef<str>>(&mut self, key: FieldKey, values: impl IntoIterator<Item = S>) {
        self.values[key.slot()].extend(values.into_iter().map(|v| Folded::new(v.as_ref())));
    }

    /// Sets a number field.
    pub fn set_number(&mut self, key: FieldKey, value: Option<i64>) {
        self.numbers[key.slot()] = value;
    }

    /// Applies each field's [`Normalize`] to the folded values (after building).
    pub fn normalize(&mut self, spec: &GameSpec) {
        for def in spec.fields {
            if def.normalize != Normalize::Plain {
                for value in &mut self.values[def.key.slot()] {
                    value.folded = def.normalize.apply(&value.folded);
                }
            }
        }
    }

    /// Returns the per-printing value of `key` for `print`.
    pub fn printing_value(print: &PrintDoc, key: FieldKey) -> Option<&Folded> {
        match key {
            FieldKey::Set => Some(&print.set),
            FieldKey::Rarity => print.rarity.as_ref(),
            FieldKey::RegMark => print.regmark.as_ref(),
            _ => None,
        }
    }
}

/// Reads a string from a printing's metadata.
pub fn metadata_string(metadata: Option<&pbjson_types::Struct>, key: &str) -> Option<String> {
    match metadata?.fields.get(key)?.kind.as_ref()? {
        pbjson_types::value::Kind::StringValue(text) => Some(text.clone()),
        _ => None,
    }
}

/// True when `text` equals `expected`, ignoring case.
pub fn is(text: Option<&str>, expected: &str) -> bool {
    text.is_some_and(|text| text.eq_ignore_ascii_case(expected))
}

/// Folds and compares, for the rank lists.
pub fn rank_in(order: &[&str], value: &str) -> Option<usize> {
    let value = fold(value);
    order.iter().position(|candidate| fold(candidate) == value)
}
