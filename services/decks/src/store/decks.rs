//! Saved decks and deck sets: saved by name (a name already used for one of the same kind
//! replaces it, keeping its id), read, listed a page at a time (the owner's, a profile's),
//! changed and deleted. Both kinds share the table and every query; the kind keeps them apart.

use std::time::SystemTime;

use kit::db::Database;
use kit::timestamp::{from_millis, to_millis};
use proto::game::Game;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::{Page, flag, limit, new_id};
use crate::domain::page::Cursor;
use crate::domain::saved::{
    DeckContent, DeckId, DeckName, DeckPatch, DeckRules, Kind, Layout, Owner, Pile, SavedDeck,
};
use crate::error::Error;

/// The columns [`deck_of`] reads, as a literal so that queries stay `&'static str`.
macro_rules! deck_columns {
    () => {
        "id, kind, game, owner, owner_name, name, public, layout, piles, rules, create_time, \
         update_time"
    };
}

/// A deck just saved, and whether it replaced one of the same name.
#[derive(Debug, Clone)]
pub struct Saved {
    /// The deck as stored.
    pub deck: SavedDeck,
    /// Whether a deck of the same name (without regard to case) was replaced.
    pub replaced: bool,
}

/// The saved decks store.
#[derive(Debug, Clone)]
pub struct DeckStore {
    db: Database,
}

impl DeckStore {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Saves `content` as `owner`'s `kind` `name` of `game`: a new one, or the one of that kind
    /// and name (without regard to case) replaced, its id and first save kept and its name as
    /// now typed.
    #[allow(clippy::too_many_arguments)] // Every field of a new deck; a struct would only rename them.
    #[tracing::instrument(skip_all, fields(game = %game, kind = kind.noun(), piles = content.piles.len()))]
    pub async fn save(
        &self,
        kind: Kind,
        owner: Owner<'_>,
        game: Game,
        name: &DeckName,
        public: bool,
        content: &DeckContent,
        now: SystemTime,
    ) -> Result<Saved, Error> {
        let id = new_id(kind.id_prefix());
        let millis = to_millis(now);
        let counts = content.counts();
        // One statement, so two saves of the same new name at once make one deck, not two.
        let row = sqlx::query(
            "INSERT INTO decks_saved (id, game, owner, owner_name, name, name_key, public, layout, \
             piles, rules, main_count, sideboard_count, create_time, update_time, kind) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14) \
             ON CONFLICT (owner, game, kind, name_key) DO UPDATE SET name = excluded.name, \
             public = excluded.public, layout = excluded.layout, piles = excluded.piles, \
             rules = excluded.rules, main_count = excluded.main_count, \
             sideboard_count = excluded.sideboard_count, update_time = excluded.update_time \
             RETURNING id, create_time",
        )
        .bind(&id)
        .bind(game.name())
        .bind(owner.id)
        .bind(owner.username)
        .bind(name.as_str())
        .bind(name.key())
        .bind(flag(public))
        .bind(layout_name(content.layout))
        .bind(piles_json(&content.piles))
        .bind(rules_json(&content.rules))
        .bind(i64::from(counts.main))
        .bind(i64::from(counts.sideboard))
        .bind(millis)
        .bind(kind_name(kind))
        .fetch_one(self.db.pool())
        .await?;
        let stored_id: String = row.try_get("id")?;
        let replaced = stored_id != id;
        let deck = SavedDeck {
            id: DeckId(stored_id),
            kind,
            game,
            owner: owner.id.to_owned(),
            owner_name: owner.username.to_owned(),
            name: name.clone(),
            public,
            content: content.clone(),
            create_time: from_millis(row.try_get("create_time")?),
            update_time: from_millis(millis),
        };
        tracing::info!(deck = %deck.id, replaced, kind = kind.noun(), "saved");
        Ok(Saved { deck, replaced })
    }

    /// Returns the `kind` `id`; `None` when there is none.
    #[tracing::instrument(skip_all, fields(deck = %id))]
    pub async fn get(&self, kind: Kind, id: &DeckId) -> Result<Option<SavedDeck>, Error> {
        let row = sqlx::query(concat!(
            "SELECT ",
            deck_columns!(),
            " FROM decks_saved WHERE id = $1 AND kind = $2"
        ))
        .bind(&id.0)
        .bind(kind_name(kind))
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(deck_of).transpose()
    }

    /// Returns a page of `owner`'s `kind` of `game`, the last changed first.
    #[tracing::instrument(skip_all, fields(game = %game, size))]
    pub async fn list_own(
        &self,
        kind: Kind,
        owner: &str,
        game: Game,
        after: Option<&Cursor>,
        size: usize,
    ) -> Result<Page<SavedDeck>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            deck_columns!(),
            " FROM decks_saved WHERE owner = $1 AND game = $2 AND kind = $6 \
             AND ($3 IS NULL OR update_time < $3 OR (update_time = $3 AND id < $4)) \
             ORDER BY update_time DESC, id DESC LIMIT $5"
        ))
        .bind(owner)
        .bind(game.name())
        .bind(after.map(|cursor| cursor.update_millis))
        .bind(after.map_or("", |cursor| cursor.id.as_str()))
        .bind(limit(size))
        .bind(kind_name(kind))
        .fetch_all(self.db.pool())
        .await?;
        page(&rows, size)
    }

    /// Returns a page of the public `kind` of `username` (as typed at sign-up), of `game` when
    /// given, the last changed first: what their profile lists.
    #[tracing::instrument(skip_all, fields(size))]
    pub async fn list_public(
        &self,
        kind: Kind,
        username: &str,
        game: Option<Game>,
        after: Option<&Cursor>,
        size: usize,
    ) -> Result<Page<SavedDeck>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            deck_columns!(),
            " FROM decks_saved WHERE owner_name = $1 AND kind = $6 AND public = 1 \
             AND ($2 IS NULL OR game = $2) \
             AND ($3 IS NULL OR update_time < $3 OR (update_time = $3 AND id < $4)) \
             ORDER BY update_time DESC, id DESC LIMIT $5"
        ))
        .bind(username)
        .bind(game.map(Game::name))
        .bind(after.map(|cursor| cursor.update_millis))
        .bind(after.map_or("", |cursor| cursor.id.as_str()))
        .bind(limit(size))
        .bind(kind_name(kind))
        .fetch_all(self.db.pool())
        .await?;
        page(&rows, size)
    }

    /// Applies `patch` to the `kind` `id` at `now`; `None` when there is none. A new name that
    /// another of the owner's of that kind has (without regard to case) is refused with
    /// [`Error::NameTaken`], changing nothing.
    #[tracing::instrument(skip_all, fields(deck = %id))]
    pub async fn update(
        &self,
        kind: Kind,
        id: &DeckId,
        patch: DeckPatch,
        now: SystemTime,
    ) -> Result<Option<SavedDeck>, Error> {
        let Some(mut deck) = self.get(kind, id).await? else {
            return Ok(None);
        };
        deck.apply(patch);
        deck.update_time = from_millis(to_millis(now));
        self.write(&deck).await?;
        Ok(Some(deck))
    }

    /// Writes `deck` over the stored one of its id (a deck set writing a synced pile back).
    /// [`Error::NameTaken`] when its name is another deck's of the owner's.
    pub async fn write(&self, deck: &SavedDeck) -> Result<(), Error> {
        let counts = deck.content.counts();
        let result = sqlx::query(
            "UPDATE decks_saved SET name = $2, name_key = $3, public = $4, layout = $5, \
             piles = $6, rules = $7, main_count = $8, sideboard_count = $9, update_time = $10 \
             WHERE id = $1",
        )
        .bind(&deck.id.0)
        .bind(deck.name.as_str())
        .bind(deck.name.key())
        .bind(flag(deck.public))
        .bind(layout_name(deck.content.layout))
        .bind(piles_json(&deck.content.piles))
        .bind(rules_json(&deck.content.rules))
        .bind(i64::from(counts.main))
        .bind(i64::from(counts.sideboard))
        .bind(to_millis(deck.update_time))
        .execute(self.db.pool())
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(err)) if err.is_unique_violation() => Err(Error::NameTaken {
                kind: deck.kind.noun(),
                name: deck.name.as_str().to_owned(),
            }),
            Err(err) => Err(err.into()),
        }
    }

    /// Deletes the `kind` `id`; whether there was one.
    #[tracing::instrument(skip_all, fields(deck = %id))]
    pub async fn delete(&self, kind: Kind, id: &DeckId) -> Result<bool, Error> {
        let result = sqlx::query("DELETE FROM decks_saved WHERE id = $1 AND kind = $2")
            .bind(&id.0)
            .bind(kind_name(kind))
            .execute(self.db.pool())
            .await?;
        Ok(result.rows_affected() > 0)
    }
}

fn page(rows: &[AnyRow], size: usize) -> Result<Page<SavedDeck>, Error> {
    let items = rows.iter().map(deck_of).collect::<Result<Vec<_>, _>>()?;
    Ok(Page::of(items, size, |deck| {
        (deck.update_time, deck.id.0.clone())
    }))
}

fn deck_of(row: &AnyRow) -> Result<SavedDeck, Error> {
    let game: String = row.try_get("game")?;
    let name: String = row.try_get("name")?;
    let layout: String = row.try_get("layout")?;
    let piles: String = row.try_get("piles")?;
    let rules: String = row.try_get("rules")?;
    let kind: String = row.try_get("kind")?;
    Ok(SavedDeck {
        id: DeckId(row.try_get("id")?),
        kind: parse_kind(&kind).ok_or(Error::Corrupt { what: "kind" })?,
        game: game.parse().map_err(|_| Error::Corrupt { what: "game" })?,
        owner: row.try_get("owner")?,
        owner_name: row.try_get("owner_name")?,
        name: DeckName::stored(name),
        public: row.try_get::<i64, _>("public")? != 0,
        content: DeckContent {
            layout: parse_layout(&layout).ok_or(Error::Corrupt { what: "layout" })?,
            piles: serde_json::from_str(&piles).map_err(|_| Error::Corrupt { what: "piles" })?,
            rules: serde_json::from_str(&rules).map_err(|_| Error::Corrupt { what: "rules" })?,
        },
        create_time: from_millis(row.try_get("create_time")?),
        update_time: from_millis(row.try_get("update_time")?),
    })
}

/// Returns a kind as stored.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Deck => "deck",
        Kind::DeckSet => "deckset",
    }
}

fn parse_kind(name: &str) -> Option<Kind> {
    [Kind::Deck, Kind::DeckSet]
        .into_iter()
        .find(|kind| kind_name(*kind) == name)
}

/// Returns a layout as stored (and as the API writes it).
pub fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Piles => "piles",
        Layout::SingleDeck => "single-deck",
        Layout::MultiDeck => "multi-deck",
    }
}

fn parse_layout(name: &str) -> Option<Layout> {
    [Layout::Piles, Layout::SingleDeck, Layout::MultiDeck]
        .into_iter()
        .find(|layout| layout_name(*layout) == name)
}

fn piles_json(piles: &[Pile]) -> String {
    serde_json::to_string(piles).expect("piles of plain fields always serialize")
}

fn rules_json(rules: &DeckRules) -> String {
    serde_json::to_string(rules).expect("rules of plain fields always serialize")
}
