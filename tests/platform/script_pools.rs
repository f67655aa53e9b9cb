//! Scripts over a game's whole real catalog: card pools read from a real catalog service, and
//! the spec's default calculators and the built-in rules of each game on decks built from the
//! real card data. These live with the platform's tests because they need the catalog (and the
//! decks codecs), and the scripts crate depends on no other service, not even for its tests.

mod builtin_rules;
mod calculator_builder;
mod catalog_pool;
mod default_calculators;
mod default_differential;
pub(crate) mod support;
