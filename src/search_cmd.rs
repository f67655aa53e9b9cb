//! `turnier search --game G 'query'`: the card search language from the command line, through
//! a running platform's search service (`--server`), or the catalog and search services
//! served in this process over the local catalog (the database, filled from the data folder
//! on first use).

use anyhow::Context as _;
use kit::services::Service;
use proto::catalog::v1::Card;
use proto::game::Game;

use crate::local::LocalCatalogSettings;

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
    let url = match &args.server {
        Some(url) => url.clone(),
        None => crate::local::serve(local, &[Service::Catalog, Service::Search]).await?,
    };
    let (rows, total, warnings) =
        search(&url, game, &args.query)
            .await
            .with_context(|| match &args.server {
                Some(url) => format!("search at {url}"),
                None => "the local catalog".to_owned(),
            })?;
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

/// Runs the query at the search service at `url`, every page of it.
async fn search(
    url: &str,
    game: Game,
    query: &str,
) -> anyhow::Result<(Vec<Row>, usize, Vec<String>)> {
    let client = kit::clients::SearchClient::connect_lazy(url)?;
    let mut rows = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .search(proto::search::v1::SearchRequest {
                game: proto::game::to_wire(game),
                query: query.to_owned(),
                page_size: 1_000,
                page_token: token.clone(),
            })
            .await?;
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
