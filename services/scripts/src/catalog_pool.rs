//! Card pools: the cards a `FilterCardPool` runs over, as JSON text ready for the sandbox, with
//! each card's id for its verdict.
//!
//! A pool is the cards a request sends, or a game's whole catalog: every card as the catalog
//! service streams it, in the JSON scripts see (the card object's canonical JSON), kept between
//! calls and read again when the catalog's version changes. The deck builder runs a card rule
//! over its whole catalog without sending ~25 MB of cards with every request; keeping the text
//! instead of parsed values keeps a catalog at its JSON size (~25 MB for Pokémon) and spares
//! every run writing it again.

use std::sync::Arc;

use kit::clients::CatalogClient;
use kit::clients::catalog::PerCatalogVersion;
use proto::catalog::v1::Card;
use proto::game::Game;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::domain::direct_bans::printing_ids;
use crate::error::Error;

/// The cards of one pool, in order, each as its JSON text, with its id.
#[derive(Debug, Default)]
pub struct CardPool {
    /// Each card's JSON.
    pub cards: Vec<Box<RawValue>>,
    /// Each card's `id`, when it has a string one.
    pub ids: Vec<Option<String>>,
    /// Each card's printings' ids (what a direct ban may name besides the card's id).
    pub printings: Vec<Vec<String>>,
}

impl CardPool {
    /// Reads a JSON array of card objects; `None` when the text is not one.
    ///
    /// The cards are parsed in full, not just delimited: only a parse finds what JSON allows
    /// and JavaScript strings cannot hold (a lone surrogate escape), which would otherwise
    /// reach the sandbox's reader and fail the run as if the script had.
    pub fn from_json(text: &str) -> Option<CardPool> {
        let cards: Vec<Value> = serde_json::from_str(text).ok()?;
        CardPool::from_values(&cards).ok()
    }

    /// Writes card objects already parsed as the pool's JSON; a card that is not a JSON object
    /// is refused, as a card rule's one card is.
    pub fn from_values(cards: &[Value]) -> Result<CardPool, serde_json::Error> {
        if let Some(at) = cards.iter().position(|card| !card.is_object()) {
            return Err(serde::de::Error::custom(format_args!(
                "card {at} is not a JSON object"
            )));
        }
        Ok(CardPool {
            ids: cards
                .iter()
                .map(|card| card.get("id").and_then(Value::as_str).map(str::to_owned))
                .collect(),
            printings: cards
                .iter()
                .map(|card| printing_ids(card).map(str::to_owned).collect())
                .collect(),
            cards: cards
                .iter()
                .map(serde_json::value::to_raw_value)
                .collect::<Result<_, _>>()?,
        })
    }

    /// Writes catalog cards as the JSON scripts see (the card object's canonical JSON).
    pub fn from_cards(cards: &[Card]) -> Result<CardPool, serde_json::Error> {
        Ok(CardPool {
            ids: cards.iter().map(|card| Some(card.id.clone())).collect(),
            printings: cards
                .iter()
                .map(|card| card.printings.iter().map(|p| p.id.clone()).collect())
                .collect(),
            cards: cards
                .iter()
                .map(|card| serde_json::to_string(card).and_then(RawValue::from_string))
                .collect::<Result<_, _>>()?,
        })
    }
}

impl CardPool {
    /// Returns the refs card `at` is known by: its id, then its printings' ids.
    pub fn refs(&self, at: usize) -> impl Iterator<Item = &str> {
        self.ids
            .get(at)
            .and_then(Option::as_deref)
            .into_iter()
            .chain(
                self.printings
                    .get(at)
                    .into_iter()
                    .flatten()
                    .map(String::as_str),
            )
    }
}

/// The catalog pools of every game, read on first use.
#[derive(Debug, Clone)]
pub struct CatalogPools {
    pools: Arc<PerCatalogVersion<CardPool>>,
}

impl CatalogPools {
    /// Reads cards from `catalog`.
    pub fn new(catalog: CatalogClient) -> Self {
        Self {
            pools: Arc::new(PerCatalogVersion::new(catalog)),
        }
    }

    /// Returns the cards `refs` resolve to (a deck's cards), from the catalog service.
    pub async fn cards(
        &self,
        game: Game,
        refs: Vec<String>,
    ) -> Result<proto::catalog::v1::GetCardsResponse, Error> {
        Ok(self.pools.catalog().get_cards(game, refs).await?)
    }

    /// Returns every card of `game` at the catalog's current version, in catalog order.
    #[tracing::instrument(skip(self))]
    pub async fn pool(&self, game: Game) -> Result<Arc<CardPool>, Error> {
        self.pools
            .get(game, |cards| async move {
                tokio::task::spawn_blocking(move || CardPool::from_cards(&cards))
                    .await
                    .map_err(|err| Error::Sandbox(err.to_string()))?
                    .map_err(Error::CardJson)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sent_pool_keeps_each_cards_json_in_order_with_its_string_id() {
        let pool = CardPool::from_json(
            r#"[{"name": "A", "id": "a-1", "deep": {"id": "not this"}}, {"name": "B"},
                {"id": 7}, {"z": 1, "id": "z-9"}]"#,
        )
        .expect("an array");
        assert_eq!(
            pool.ids,
            [Some("a-1".to_owned()), None, None, Some("z-9".to_owned())]
        );
        let texts: Vec<&str> = pool.cards.iter().map(|card| card.get()).collect();
        assert_eq!(
            texts,
            [
                r#"{"name":"A","id":"a-1","deep":{"id":"not this"}}"#,
                r#"{"name":"B"}"#,
                r#"{"id":7}"#,
                r#"{"z":1,"id":"z-9"}"#
            ]
        );
        assert!(CardPool::from_json("[]").is_some_and(|pool| pool.cards.is_empty()));
        let printed =
            CardPool::from_json(r#"[{"id": "c", "printings": [{"id": "p1"}, {"id": "p2"}]}, {}]"#)
                .expect("an array");
        assert_eq!(printed.refs(0).collect::<Vec<_>>(), ["c", "p1", "p2"]);
        assert_eq!(printed.refs(1).count(), 0);
        assert_eq!(printed.refs(9).count(), 0);
        // Every card is an object, as a card rule's one card is.
        assert!(CardPool::from_json(r#"[{"id": "a"}, "not a card"]"#).is_none());
        assert!(CardPool::from_values(&[serde_json::json!(null)]).is_err());
    }

    #[test]
    fn a_sent_pool_must_be_a_json_array() {
        // Not arrays, broken JSON, a lone surrogate (no JavaScript string can be read from it
        // by the sandbox's reader) and nesting past serde_json's 128 levels.
        let deep = format!("[{}1{}]", "[".repeat(200), "]".repeat(200));
        for text in [
            "{}",
            "",
            "[1,",
            "null",
            r#"{"cards": []}"#,
            r#"[{"name": "\ud800"}]"#,
            &deep,
        ] {
            assert!(CardPool::from_json(text).is_none(), "{text}");
        }
    }
}
