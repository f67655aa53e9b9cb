//! Templates: saved by name (the same name updates the template, keeping its id), read, listed
//! a page at a time (the owner's, a profile's), renamed, published and deleted; and which
//! templates an account hid from its pickers.

use std::collections::HashSet;
use std::time::SystemTime;

use kit::db::Database;
use kit::timestamp::{from_millis, to_millis};
use proto::game::Game;
use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::{Page, flag, limit, new_id};
use crate::domain::page::Cursor;
use crate::domain::saved::{DeckName, Owner};
use crate::domain::template::{Template, TemplateLayout};
use crate::error::Error;

/// The columns [`template_of`] reads.
macro_rules! template_columns {
    () => {
        "id, game, owner, owner_name, name, public, layout, create_time, update_time"
    };
}

/// The prefix of a template's id.
pub const TEMPLATE_ID_PREFIX: &str = "tp_";

/// The templates store.
#[derive(Debug, Clone)]
pub struct TemplateStore {
    db: Database,
}

impl TemplateStore {
    /// Creates a store over a migrated database.
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    /// Saves `layout` as `owner`'s template `name` of `game`: a new one, or the one of that
    /// name (without regard to case) updated, its id and first save kept. Returns it, and
    /// whether it replaced one.
    #[tracing::instrument(skip_all, fields(game = %game, piles = layout.piles.len()))]
    pub async fn save(
        &self,
        owner: Owner<'_>,
        game: Game,
        name: &DeckName,
        public: bool,
        layout: &TemplateLayout,
        now: SystemTime,
    ) -> Result<(Template, bool), Error> {
        let id = new_id(TEMPLATE_ID_PREFIX);
        let millis = to_millis(now);
        let row = sqlx::query(
            "INSERT INTO decks_templates (id, game, owner, owner_name, name, name_key, public, \
             layout, create_time, update_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
             ON CONFLICT (owner, game, name_key) DO UPDATE SET name = excluded.name, \
             public = excluded.public, layout = excluded.layout, \
             update_time = excluded.update_time \
             RETURNING id, create_time",
        )
        .bind(&id)
        .bind(game.name())
        .bind(owner.id)
        .bind(owner.username)
        .bind(name.as_str())
        .bind(name.key())
        .bind(flag(public))
        .bind(layout_json(layout))
        .bind(millis)
        .fetch_one(self.db.pool())
        .await?;
        let stored_id: String = row.try_get("id")?;
        let replaced = stored_id != id;
        let template = Template {
            id: stored_id,
            game,
            owner: owner.id.to_owned(),
            owner_name: owner.username.to_owned(),
            name: name.clone(),
            public,
            layout: layout.clone(),
            create_time: from_millis(row.try_get("create_time")?),
            update_time: from_millis(millis),
        };
        tracing::info!(template = %template.id, replaced, "template saved");
        Ok((template, replaced))
    }

    /// Returns the template `id`; `None` when there is none.
    #[tracing::instrument(skip_all, fields(template = %id))]
    pub async fn get(&self, id: &str) -> Result<Option<Template>, Error> {
        let row = sqlx::query(concat!(
            "SELECT ",
            template_columns!(),
            " FROM decks_templates WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?;
        row.as_ref().map(template_of).transpose()
    }

    /// Returns a page of `owner`'s templates of `game`, the last changed first.
    #[tracing::instrument(skip_all, fields(game = %game, size))]
    pub async fn list_own(
        &self,
        owner: &str,
        game: Game,
        after: Option<&Cursor>,
        size: usize,
    ) -> Result<Page<Template>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            template_columns!(),
            " FROM decks_templates WHERE owner = $1 AND game = $2 \
             AND ($3 IS NULL OR update_time < $3 OR (update_time = $3 AND id < $4)) \
             ORDER BY update_time DESC, id DESC LIMIT $5"
        ))
        .bind(owner)
        .bind(game.name())
        .bind(after.map(|cursor| cursor.update_millis))
        .bind(after.map_or("", |cursor| cursor.id.as_str()))
        .bind(limit(size))
        .fetch_all(self.db.pool())
        .await?;
        page(&rows, size)
    }

    /// Returns a page of the public templates of `username` (as typed at sign-up), of `game`
    /// when given: what their profile lists.
    #[tracing::instrument(skip_all, fields(size))]
    pub async fn list_public(
        &self,
        username: &str,
        game: Option<Game>,
        after: Option<&Cursor>,
        size: usize,
    ) -> Result<Page<Template>, Error> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            template_columns!(),
            " FROM decks_templates WHERE owner_name = $1 AND public = 1 \
             AND ($2 IS NULL OR game = $2) \
             AND ($3 IS NULL OR update_time < $3 OR (update_time = $3 AND id < $4)) \
             ORDER BY update_time DESC, id DESC LIMIT $5"
        ))
        .bind(username)
        .bind(game.map(Game::name))
        .bind(after.map(|cursor| cursor.update_millis))
        .bind(after.map_or("", |cursor| cursor.id.as_str()))
        .bind(limit(size))
        .fetch_all(self.db.pool())
        .await?;
        page(&rows, size)
    }

    /// Renames or publishes the template `id` at `now`; `None` when there is none.
    /// [`Error::NameTaken`] when another template of the owner's has the new name.
    #[tracing::instrument(skip_all, fields(template = %id))]
    pub async fn update(
        &self,
        id: &str,
        name: Option<&DeckName>,
        public: Option<bool>,
        now: SystemTime,
    ) -> Result<Option<Template>, Error> {
        let Some(mut template) = self.get(id).await? else {
            return Ok(None);
        };
        if let Some(name) = name {
            template.name = name.clone();
        }
        if let Some(public) = public {
            template.public = public;
        }
        template.update_time = from_millis(to_millis(now));
        let result = sqlx::query(
            "UPDATE decks_templates SET name = $2, name_key = $3, public = $4, update_time = $5 \
             WHERE id = $1",
        )
        .bind(id)
        .bind(template.name.as_str())
        .bind(template.name.key())
        .bind(flag(template.public))
        .bind(to_millis(template.update_time))
        .execute(self.db.pool())
        .await;
        match result {
            Ok(_) => Ok(Some(template)),
            Err(sqlx::Error::Database(err)) if err.is_unique_violation() => Err(Error::NameTaken {
                kind: "template",
                name: template.name.as_str().to_owned(),
            }),
            Err(err) => Err(err.into()),
        }
    }

    /// Deletes the template `id`; whether there was one.
    #[tracing::instrument(skip_all, fields(template = %id))]
    pub async fn delete(&self, id: &str) -> Result<bool, Error> {
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("DELETE FROM decks_hidden_templates WHERE template = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let result = sqlx::query("DELETE FROM decks_templates WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(result.rows_affected() > 0)
    }

    /// Hides the template `template` from `owner`'s pickers, or shows it again.
    #[tracing::instrument(skip_all, fields(template = %template, hidden))]
    pub async fn set_hidden(&self, owner: &str, template: &str, hidden: bool) -> Result<(), Error> {
        let query = if hidden {
            "INSERT INTO decks_hidden_templates (owner, template) VALUES ($1, $2) \
             ON CONFLICT (owner, template) DO NOTHING"
        } else {
            "DELETE FROM decks_hidden_templates WHERE owner = $1 AND template = $2"
        };
        sqlx::query(query)
            .bind(owner)
            .bind(template)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Returns the ids of the templates `owner` hid.
    pub async fn hidden(&self, owner: &str) -> Result<HashSet<String>, Error> {
        let rows = sqlx::query("SELECT template FROM decks_hidden_templates WHERE owner = $1")
            .bind(owner)
            .fetch_all(self.db.pool())
            .await?;
        rows.iter()
            .map(|row| row.try_get::<String, _>("template").map_err(Error::from))
            .collect()
    }
}

fn page(rows: &[AnyRow], size: usize) -> Result<Page<Template>, Error> {
    let items = rows
        .iter()
        .map(template_of)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::of(items, size, |template| {
        (template.update_time, template.id.clone())
    }))
}

fn template_of(row: &AnyRow) -> Result<Template, Error> {
    let game: String = row.try_get("game")?;
    let name: String = row.try_get("name")?;
    let layout: String = row.try_get("layout")?;
    Ok(Template {
        id: row.try_get("id")?,
        game: game.parse().map_err(|_| Error::Corrupt { what: "game" })?,
        owner: row.try_get("owner")?,
        owner_name: row.try_get("owner_name")?,
        name: DeckName::stored(name),
        public: row.try_get::<i64, _>("public")? != 0,
        layout: serde_json::from_str(&layout).map_err(|_| Error::Corrupt {
            what: "template layout",
        })?,
        create_time: from_millis(row.try_get("create_time")?),
        update_time: from_millis(row.try_get("update_time")?),
    })
}

fn layout_json(layout: &TemplateLayout) -> String {
    serde_json::to_string(layout).expect("a layout of plain fields always serializes")
}
