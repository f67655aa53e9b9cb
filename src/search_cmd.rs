//! `turnier search --game G 'query'`: the card search language from the command line, over the
//! local catalog (the database, filled from the data folder on first use) or a running
//! platform (`--server`).

use anyhow::Context as _;
use catalog::domain::Game;
use proto::catalog::v1::Card;

use crate::catalog_cmd::LocalCatalogSettings;

/// The arguments of `turnier search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// lor, pokemon or riftbound.
    #[arg(long)]
    game: String,
    /// The query, e.g. 't:water hp>=120'.
    query: String,
    /// Prints the full cards as JSON, one per line.
    #[arg(long, conflicts_with = "count")]
    json: bool,
    /// Prints only how many cards match.
    #[arg(long)]
    count: bool,
    /// A running platform's gRPC address (http://host:50051); without it, the local catalog.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
}

/// One result row: the card, and with `unique:prints` its printing.
struct Row {
    card: Card,
    printing: Option<String>,
}

/// Runs `turnier search`.
pub async fn run(local: &LocalCatalogSettings, args: SearchArgs) -> anyhow::Result<()> {
    let game: Game = args.game.parse()?;
    let (rows, total, warnings) = match &args.server {
        Some(url) => remote(url, game, &args.query).await?,
        None => local_search(local, game, &args.query).await?,
    };
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let written = if args.count {
        writeln!(out, "{total}")
    } else {
        rows.into_iter().try_for_each(|row| {
            if args.json {
                let json = serde_json::to_string(&row.card).map_err(std::io::Error::other)?;
                writeln!(out, "{json}")
            } else {
                let reference = row
                    .printing
                    .or_else(|| row.card.printings.first().map(|p| p.id.clone()))
                    .unwrap_or_else(|| row.card.id.clone());
                writeln!(out, "{reference}\t{}", row.card.name)
            }
        })
    };
    match written {
        // A reader that stopped early (`| head`) is not an error.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

async fn local_search(
    local: &LocalCatalogSettings,
    game: Game,
    query: &str,
) -> anyhow::Result<(Vec<Row>, usize, Vec<String>)> {
    let store = crate::catalog_cmd::local_catalog(local).await?;
    let cards = store.all_cards(game).await?;
    let sets = store.sets(game).await?;
    let index = search::domain::index::Index::new(game, cards, &sets);
    let mut rows = Vec::new();
    let mut token = String::new();
    loop {
        let page = index.search(query, search::domain::index::MAX_PAGE_SIZE, &token)?;
        let (total, warnings, next) = (
            page.total,
            page.warnings.clone(),
            page.next_page_token.clone(),
        );
        rows.extend(page.cards.iter().map(|hit| Row {
            card: hit.card.clone(),
            printing: hit.printing.map(|p| p.id.clone()),
        }));
        match next {
            Some(next) => token = next,
            None => return Ok((rows, total, warnings)),
        }
    }
}

async fn remote(
    url: &str,
    game: Game,
    query: &str,
) -> anyhow::Result<(Vec<Row>, usize, Vec<String>)> {
    use proto::search::v1::search_service_client::SearchServiceClient;
    let mut client = SearchServiceClient::new(kit::client::channel(url)?);
    let mut rows = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .search(proto::search::v1::SearchRequest {
                game: game.to_proto() as i32,
                query: query.to_owned(),
                page_size: 1_000,
                page_token: token.clone(),
            })
            .await
            .with_context(|| format!("search at {url}"))?
            .into_inner();
        rows.extend(page.cards.into_iter().filter_map(|hit| {
            Some(Row {
                card: hit.card?,
                printing: hit.printing_id,
            })
        }));
        if page.next_page_token.is_empty() {
            return Ok((
                rows,
                usize::try_from(page.total_size).unwrap_or(0),
                page.warnings,
            ));
        }
        token = page.next_page_token;
    }
}
