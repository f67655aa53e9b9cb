//! Persistence of the catalog: cards as their canonical JSON, refs, globals, sets and the
//! catalog version of each game. sqlx over PostgreSQL or SQLite through `kit::db`.
//!
//! An import replaces a game's catalog in one transaction, so readers see the old catalog or
//! the new one, never half of each. Refs are never lost: when an identity id disappears but its
//! printings live on under a new identity, the old id becomes an alias of the new one.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{SystemTime, UNIX_EPOCH};

use kit::db::Database;
use sqlx::Row;

use crate::domain::{Card, CardSet, Game, Import, ids};
use crate::error::Error;

/// The catalog's tables (versions 2xxxxxxx, see `kit::db`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How many refs one query looks up at most (SQLite allows 32,766 parameters).
const REFS_PER_QUERY: usize = 500;

/// What saving an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveOutcome {
    /// False when the import was identical to the stored catalog (nothing was written).
    pub changed: bool,
    /// The game's catalog version after the save.
    pub version: String,
    /// Cards in the catalog after the save.
    pub cards: usize,
    /// Refs that resolve after the save.
    pub refs: usize,
    /// Identity ids that disappeared and now resolve as aliases of their successors.
    pub retired_ids: usize,
}

/// The catalog store.
#[derive(Debug, Clone)]
pub struct Store {
    db: Database,
}

impl Store {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Returns the database the store keeps the catalog in.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Returns the version an import would have: a hash of every card, the globals and the sets,
    /// each as JSON with object keys sorted (maps inside cards have no order of their own).
    pub fn version_of(import: &Import) -> Result<String, Error> {
        let mut parts = Vec::with_capacity(import.cards.len() + 3);
        for card in &import.cards {
            let value = serde_json::to_value(card).map_err(|cause| corrupt(&card.id, cause))?;
            parts.push(canonical(value).to_string());
        }
        let mut aliases = import.aliases.clone();
        aliases.sort();
        parts.push(serde_json::to_string(&aliases).map_err(|cause| corrupt("aliases", cause))?);
        parts.push(canonical(serde_json::Value::Object(import.globals.clone())).to_string());
        parts.push(serde_json::to_string(&import.sets).map_err(|cause| corrupt("sets", cause))?);
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        Ok(ids::stable_hash(&parts, 32))
    }

    /// Replaces `game`'s catalog with `import`, keeping every ref that resolved before
    /// resolving afterwards where its card lives on. Writes nothing when nothing changed.
    #[tracing::instrument(skip_all, fields(game = %game, cards = import.cards.len()))]
    pub async fn save_import(&self, game: Game, import: &Import) -> Result<SaveOutcome, Error> {
        let version = Self::version_of(import)?;
        if self.version(game).await?.as_deref() == Some(version.as_str()) {
            return Ok(SaveOutcome {
                changed: false,
                version,
                cards: import.cards.len(),
                refs: self.ref_count(game).await?,
                retired_ids: 0,
            });
        }

        // The new ref map: every card's own id, then the importer's aliases.
        let mut refs: BTreeMap<String, String> = BTreeMap::new();
        for card in &import.cards {
            refs.insert(card.id.clone(), card.id.clone());
        }
        for (alias, id) in &import.aliases {
            refs.entry(alias.clone()).or_insert_with(|| id.clone());
        }
        let new_ids: BTreeSet<&str> = import.cards.iter().map(|card| card.id.as_str()).collect();

        // Old refs whose card is gone: follow them to a successor through any ref (a printing
        // id) that both the old card and a new card carry.
        let old_refs = self.all_refs(game).await?;
        let mut successor: BTreeMap<String, String> = BTreeMap::new();
        for (old_ref, old_id) in &old_refs {
            if new_ids.contains(old_id.as_str()) {
                continue;
            }
            if let Some(new_id) = refs.get(old_ref) {
                successor
                    .entry(old_id.clone())
                    .or_insert_with(|| new_id.clone());
            }
        }
        let mut retired_ids = 0;
        for (old_ref, old_id) in &old_refs {
            if refs.contains_key(old_ref) {
                continue;
            }
            if let Some(new_id) = successor.get(old_id) {
                refs.insert(old_ref.clone(), new_id.clone());
                if old_ref == old_id {
                    retired_ids += 1;
                }
            }
        }

        let mut tx = self.db.pool().begin().await?;
        sqlx::query("DELETE FROM catalog_cards WHERE game = $1")
            .bind(game.name())
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM catalog_refs WHERE game = $1")
            .bind(game.name())
            .execute(&mut *tx)
            .await?;
        // Pokémon cards list the older identity ids that now point to them (`identityAliases`).
        let mut identity_aliases: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        if game == Game::Pokemon {
            for (reference, id) in &refs {
                if reference != id && reference.contains("--") {
                    identity_aliases
                        .entry(id.as_str())
                        .or_default()
                        .push(reference.as_str());
                }
            }
        }
        for (position, card) in import.cards.iter().enumerate() {
            let card = with_identity_aliases(card, identity_aliases.get(card.id.as_str()));
            let card = &card;
            sqlx::query(
                "INSERT INTO catalog_cards (game, id, position, name, card_json) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game.name())
            .bind(&card.id)
            .bind(position as i64)
            .bind(&card.name)
            .bind(card_json(card)?)
            .execute(&mut *tx)
            .await?;
        }
        for (reference, id) in &refs {
            sqlx::query("INSERT INTO catalog_refs (game, ref, card_id) VALUES ($1, $2, $3)")
                .bind(game.name())
                .bind(reference)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        let globals =
            serde_json::to_string(&import.globals).map_err(|cause| corrupt("globals", cause))?;
        let sets = serde_json::to_string(&import.sets).map_err(|cause| corrupt("sets", cause))?;
        sqlx::query(
            "INSERT INTO catalog_games (game, version, globals_json, sets_json, imported_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (game) DO UPDATE SET version = excluded.version, globals_json = excluded.globals_json, \
             sets_json = excluded.sets_json, imported_at = excluded.imported_at",
        )
        .bind(game.name())
        .bind(&version)
        .bind(globals)
        .bind(sets)
        .bind(now_millis())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;

        Ok(SaveOutcome {
            changed: true,
            version,
            cards: import.cards.len(),
            refs: refs.len(),
            retired_ids,
        })
    }

    /// Returns the game's catalog version, or `None` before its first import.
    pub async fn version(&self, game: Game) -> Result<Option<String>, Error> {
        let row = sqlx::query("SELECT version FROM catalog_games WHERE game = $1")
            .bind(game.name())
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row
            .map(|row| row.try_get::<String, _>("version"))
            .transpose()?)
    }

    /// Returns the game's globals object (empty before the first import).
    pub async fn globals(
        &self,
        game: Game,
    ) -> Result<serde_json::Map<String, serde_json::Value>, Error> {
        let row = sqlx::query("SELECT globals_json FROM catalog_games WHERE game = $1")
            .bind(game.name())
            .fetch_optional(self.db.pool())
            .await?;
        match row {
            Some(row) => {
                let json: String = row.try_get("globals_json")?;
                serde_json::from_str(&json).map_err(|cause| corrupt("globals", cause))
            }
            None => Ok(serde_json::Map::new()),
        }
    }

    /// Returns the game's sets, in release order.
    pub async fn sets(&self, game: Game) -> Result<Vec<CardSet>, Error> {
        let row = sqlx::query("SELECT sets_json FROM catalog_games WHERE game = $1")
            .bind(game.name())
            .fetch_optional(self.db.pool())
            .await?;
        match row {
            Some(row) => {
                let json: String = row.try_get("sets_json")?;
                serde_json::from_str(&json).map_err(|cause| corrupt("sets", cause))
            }
            None => Ok(Vec::new()),
        }
    }

    /// Resolves refs to card ids; refs the catalog does not know are absent from the map.
    pub async fn resolve_refs(
        &self,
        game: Game,
        refs: &[String],
    ) -> Result<BTreeMap<String, String>, Error> {
        let mut resolved = BTreeMap::new();
        let unique: Vec<&String> = refs.iter().collect::<BTreeSet<_>>().into_iter().collect();
        for chunk in unique.chunks(REFS_PER_QUERY) {
            let sql = format!(
                "SELECT ref, card_id FROM catalog_refs WHERE game = $1 AND ref IN ({})",
                placeholders(2, chunk.len())
            );
            // Only placeholders are formatted in; every value is bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(game.name());
            for reference in chunk {
                query = query.bind(reference.as_str());
            }
            for row in query.fetch_all(self.db.pool()).await? {
                resolved.insert(row.try_get("ref")?, row.try_get("card_id")?);
            }
        }
        Ok(resolved)
    }

    /// Loads cards by id; ids that are not stored are absent from the map.
    pub async fn cards_by_id(
        &self,
        game: Game,
        ids: &BTreeSet<String>,
    ) -> Result<BTreeMap<String, Card>, Error> {
        let ids: Vec<&String> = ids.iter().collect();
        let mut cards = BTreeMap::new();
        for chunk in ids.chunks(REFS_PER_QUERY) {
            let sql = format!(
                "SELECT id, card_json FROM catalog_cards WHERE game = $1 AND id IN ({})",
                placeholders(2, chunk.len())
            );
            // Only placeholders are formatted in; every value is bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(game.name());
            for id in chunk {
                query = query.bind(id.as_str());
            }
            for row in query.fetch_all(self.db.pool()).await? {
                let id: String = row.try_get("id")?;
                let json: String = row.try_get("card_json")?;
                let card = parse_card(&id, &json)?;
                cards.insert(id, card);
            }
        }
        Ok(cards)
    }

    /// Returns up to `limit` cards after catalog position `after` (exclusive; -1 for the
    /// start), with their positions, in catalog order.
    pub async fn cards_after(
        &self,
        game: Game,
        after: i64,
        limit: i64,
    ) -> Result<Vec<(i64, Card)>, Error> {
        let rows = sqlx::query(
            "SELECT id, position, card_json FROM catalog_cards WHERE game = $1 AND position > $2 \
             ORDER BY position LIMIT $3",
        )
        .bind(game.name())
        .bind(after)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        rows.into_iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                let json: String = row.try_get("card_json")?;
                Ok((row.try_get("position")?, parse_card(&id, &json)?))
            })
            .collect()
    }

    /// Returns every card of the game, in catalog order.
    pub async fn all_cards(&self, game: Game) -> Result<Vec<Card>, Error> {
        let mut cards = Vec::new();
        let mut after = -1;
        loop {
            let page = self.cards_after(game, after, 2_000).await?;
            let Some((last, _)) = page.last() else {
                return Ok(cards);
            };
            after = *last;
            cards.extend(page.into_iter().map(|(_, card)| card));
        }
    }

    /// Returns how many cards the game's catalog holds.
    pub async fn card_count(&self, game: Game) -> Result<usize, Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM catalog_cards WHERE game = $1")
            .bind(game.name())
            .fetch_one(self.db.pool())
            .await?;
        Ok(usize::try_from(row.try_get::<i64, _>("n")?).unwrap_or(0))
    }

    async fn ref_count(&self, game: Game) -> Result<usize, Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM catalog_refs WHERE game = $1")
            .bind(game.name())
            .fetch_one(self.db.pool())
            .await?;
        Ok(usize::try_from(row.try_get::<i64, _>("n")?).unwrap_or(0))
    }

    async fn all_refs(&self, game: Game) -> Result<Vec<(String, String)>, Error> {
        let rows = sqlx::query("SELECT ref, card_id FROM catalog_refs WHERE game = $1")
            .bind(game.name())
            .fetch_all(self.db.pool())
            .await?;
        rows.into_iter()
            .map(|row| Ok((row.try_get("ref")?, row.try_get("card_id")?)))
            .collect()
    }
}

/// Returns `card` with `aliases` merged into its `game.identityAliases`, sorted and unique.
fn with_identity_aliases(card: &Card, aliases: Option<&Vec<&str>>) -> Card {
    let mut card = card.clone();
    if let (Some(aliases), Some(game)) = (aliases, card.game.as_mut()) {
        let mut all: BTreeSet<String> = game.identity_aliases.drain(..).collect();
        all.extend(aliases.iter().map(|alias| (*alias).to_owned()));
        game.identity_aliases = all.into_iter().collect();
    }
    card
}

/// Returns `value` with every object's keys in sorted order.
fn canonical(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<(String, serde_json::Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, canonical(v)))
                    .collect(),
            )
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(canonical).collect())
        }
        other => other,
    }
}

fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn card_json(card: &Card) -> Result<String, Error> {
    serde_json::to_string(card).map_err(|cause| corrupt(&card.id, cause))
}

fn parse_card(id: &str, json: &str) -> Result<Card, Error> {
    serde_json::from_str(json).map_err(|cause| corrupt(id, cause))
}

fn corrupt(id: &str, cause: serde_json::Error) -> Error {
    Error::CorruptCard {
        id: id.to_owned(),
        cause,
    }
}

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}
