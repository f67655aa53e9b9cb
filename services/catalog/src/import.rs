//! Importing card data: read a game's upstream files from a folder, let the domain importer
//! turn them into cards, save them. Also the embedded default's first start: the sample catalog
//! at once, then the data folder (when there is one) in the background.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::domain::{self, Game, Import, SourceFile};
use crate::error::Error;
use crate::store::{SaveOutcome, Store};

/// The sample catalog every embedded platform starts with: the example cards of the card-data
/// pages, so that a laptop with no data folder still has cards to show.
const SAMPLE: &str = include_str!("../sample/catalog.json");

/// The largest upstream file read (the Pokémon data's largest set file is ~1 MiB).
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// What one import did.
#[derive(Debug, Clone)]
pub struct ImportReport {
    /// The game.
    pub game: Game,
    /// Card identities imported.
    pub cards: usize,
    /// Printings across those cards (LoR has none).
    pub printings: usize,
    /// Records skipped, each with where and why.
    pub skipped: Vec<domain::Skipped>,
    /// What the store did.
    pub saved: SaveOutcome,
    /// Reading and converting the files.
    pub parse_time: Duration,
    /// Saving.
    pub save_time: Duration,
}

/// Lists the upstream files of `game` under `dir` (the game's own folder, such as
/// `../shared/data/pokemon`): LoR and Riftbound take the folder's `*.json`, Pokémon
/// `cards/en/*.json` and `sets/en.json`.
pub fn source_paths(game: Game, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let json_in = |folder: &Path| -> Result<Vec<PathBuf>, Error> {
        let entries = std::fs::read_dir(folder).map_err(|cause| read_error(folder, cause))?;
        let mut paths = Vec::new();
        for entry in entries {
            let path = entry.map_err(|cause| read_error(folder, cause))?.path();
            if path.is_file() && path.extension().is_some_and(|ext| ext == "json") {
                paths.push(path);
            }
        }
        paths.sort();
        Ok(paths)
    };
    match game {
        Game::Lor | Game::Riftbound => json_in(dir),
        Game::Pokemon => {
            let mut paths = json_in(&dir.join("cards/en"))?;
            paths.push(dir.join("sets/en.json"));
            Ok(paths)
        }
    }
}

/// Reads `game`'s upstream files under `dir`.
pub fn read_sources(game: Game, dir: &Path) -> Result<Vec<SourceFile>, Error> {
    source_paths(game, dir)?
        .into_iter()
        .map(|path| {
            let size = std::fs::metadata(&path)
                .map_err(|cause| read_error(&path, cause))?
                .len();
            if size > MAX_FILE_BYTES {
                return Err(read_error(
                    &path,
                    std::io::Error::other(format!(
                        "{size} bytes is over the {MAX_FILE_BYTES}-byte limit"
                    )),
                ));
            }
            let contents = std::fs::read(&path).map_err(|cause| read_error(&path, cause))?;
            let relative = path.strip_prefix(dir).unwrap_or(&path);
            Ok(SourceFile {
                path: relative.to_string_lossy().replace('\\', "/"),
                contents,
            })
        })
        .collect()
}

/// Runs the domain importer of `game`.
pub fn convert(game: Game, files: &[SourceFile]) -> Import {
    match game {
        Game::Lor => domain::lor::import(files),
        Game::Pokemon => domain::pokemon::import(files),
        Game::Riftbound => domain::riftbound::import(files),
    }
}

/// Imports `game` from its folder `dir` into `store`. Conversion runs on a blocking thread
/// (20,000 Pokémon printings take a moment); `progress` hears each step.
pub async fn import_dir(
    store: &Store,
    game: Game,
    dir: &Path,
    progress: &(dyn Fn(&str) + Send + Sync),
) -> Result<ImportReport, Error> {
    let started = Instant::now();
    let dir_owned = dir.to_owned();
    progress(&format!("{game}: reading {}", dir.display()));
    let import = tokio::task::spawn_blocking(move || -> Result<Import, Error> {
        let files = read_sources(game, &dir_owned)?;
        Ok(convert(game, &files))
    })
    .await
    .map_err(|cause| read_error(dir, std::io::Error::other(cause.to_string())))??;
    let parse_time = started.elapsed();
    if import.cards.is_empty() {
        return Err(Error::NothingToImport {
            game: game.name().to_owned(),
            path: dir.display().to_string(),
        });
    }
    progress(&format!(
        "{game}: {} cards, {} skipped records; saving",
        import.cards.len(),
        import.skipped.len()
    ));
    save(store, game, import, parse_time).await
}

async fn save(
    store: &Store,
    game: Game,
    import: Import,
    parse_time: Duration,
) -> Result<ImportReport, Error> {
    let saving = Instant::now();
    let saved = store.save_import(game, &import).await?;
    Ok(ImportReport {
        game,
        cards: import.cards.len(),
        printings: import.cards.iter().map(|card| card.printings.len()).sum(),
        skipped: import.skipped,
        saved,
        parse_time,
        save_time: saving.elapsed(),
    })
}

/// Returns the sample catalog of `game`.
pub fn sample(game: Game) -> Import {
    #[derive(serde::Deserialize)]
    struct SampleGame {
        cards: Vec<domain::Card>,
        sets: Vec<domain::CardSet>,
        globals: serde_json::Map<String, serde_json::Value>,
    }
    let all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(SAMPLE).expect("the sample catalog is valid JSON (a test checks it)");
    let parsed: SampleGame = serde_json::from_value(all[game.name()].clone())
        .expect("the sample catalog parses as cards (a test checks it)");
    let mut aliases = Vec::new();
    for card in &parsed.cards {
        for printing in &card.printings {
            aliases.push((printing.id.clone(), card.id.clone()));
            for variant in &printing.variants {
                aliases.push((variant.id.clone(), card.id.clone()));
            }
        }
    }
    Import {
        cards: parsed.cards,
        aliases,
        globals: parsed.globals,
        sets: parsed.sets,
        skipped: Vec::new(),
    }
}

/// The embedded default's first start: every game with no catalog yet gets the sample at
/// once, and then the data folder's cards (`data_dir/<game>`, when it exists) are imported one
/// game after another. Failures are logged, not fatal: the platform serves what it has.
pub async fn bootstrap(store: Store, data_dir: Option<PathBuf>) {
    let mut empty = Vec::new();
    for game in Game::ALL {
        match store.version(game).await {
            Ok(Some(_)) => {}
            Ok(None) => empty.push(game),
            Err(err) => tracing::error!(%game, error = %err, "cannot read the catalog version"),
        }
    }
    // Every game has cards within moments of the first start; the real data follows.
    let mut sampled = Vec::new();
    for game in empty {
        match save(&store, game, sample(game), Duration::ZERO).await {
            Ok(_) => {
                tracing::info!(%game, "sample catalog loaded");
                sampled.push(game);
            }
            Err(err) => tracing::error!(%game, error = %err, "cannot save the sample catalog"),
        }
    }
    for game in sampled {
        let Some(dir) = data_dir
            .as_ref()
            .map(|dir| dir.join(game.name()))
            .filter(|dir| dir.is_dir())
        else {
            continue;
        };
        let progress = |line: &str| tracing::info!(%game, "{line}");
        match import_dir(&store, game, &dir, &progress).await {
            Ok(report) => tracing::info!(
                %game,
                cards = report.cards,
                printings = report.printings,
                skipped = report.skipped.len(),
                seconds = (report.parse_time + report.save_time).as_secs_f64(),
                "card data imported"
            ),
            Err(err) => tracing::error!(%game, error = %err, "card data import failed"),
        }
    }
}

fn read_error(path: &Path, cause: std::io::Error) -> Error {
    Error::ReadData {
        path: path.display().to_string(),
        cause,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_catalog_holds_the_example_card_of_every_game() {
        assert_eq!(sample(Game::Lor).cards[0].id, "01DE012");
        assert_eq!(sample(Game::Pokemon).cards[0].name, "Pikachu ex");
        let riftbound = sample(Game::Riftbound);
        assert!(riftbound.cards[0].id.starts_with("rb-"));
        assert!(
            riftbound
                .aliases
                .iter()
                .any(|(alias, _)| alias.starts_with("ogn-")),
            "{:?}",
            riftbound.aliases
        );
    }
}
