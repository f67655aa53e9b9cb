//! The tournaments service: the tournament engine, registration and deck submission
//! (`turnier.tournaments.v1.TournamentService`).
//!
//! It owns the engine's rules (`domain`: standings, pairings, brackets, lobbies), the events run
//! on the platform as the fold of their append-only log (`run`: what organizers and players
//! may do, and when), the log's tables (`store`, migrations `7…`), the operations with their
//! ownership checks and live events (`service`; the streams each caller may hold, `streams`)
//! and the gRPC surface (`grpc`). It calls the
//! accounts service to find co-organizers by username and the scripts service for the rules a
//! tournament's deck settings pin. Its callers are the gateway
//! (`/api/v1/…/tournaments…`), third parties over gRPC, and the CLI (`turnier tournament`:
//! the engine in process, or a server with `--server`). Lineups are checked by the
//! submission worker (`worker`, `lineup`), which also sends the tournaments' signed webhooks
//! (`webhooks`, `delivery`).

mod delivery;
pub mod domain;
mod error;
pub mod grpc;
pub mod jobs;
pub mod lineup;
pub mod offline;
pub mod run;
pub mod service;
pub mod store;
pub mod streams;
pub mod webhooks;
pub mod worker;

pub use error::Error;

use kit::clients::{AccountsClient, ScriptsClient};
use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The tournaments service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Tournaments;

/// What the tournaments service takes besides its dependencies.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Where lineup checks are queued (`worker::QUEUE`); `None`: nowhere (submissions stay
    /// pending).
    pub queue: Option<kit::queue::Queue>,
    /// The webhook key and address rule (`webhooks`).
    pub webhooks: webhooks::WebhookSettings,
    /// The caps on the live event streams one caller holds (`streams`).
    pub streams: streams::StreamLimits,
}

/// The caps on live event streams, as flags and environment variables the binary flattens.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Live event streams")]
pub struct EventStreamArgs {
    /// Live event streams (`WatchTournament`, `…/events`) one signed-in account may hold open
    /// at once in one process; one more is refused with `resource_exhausted`. 0: no cap.
    #[arg(
        long,
        env = "TURNIER_EVENT_STREAMS_PER_ACCOUNT",
        value_name = "N",
        default_value_t = streams::DEFAULT_PER_ACCOUNT,
        value_parser = kit::config::whole_number(0..=100_000_usize)
    )]
    pub event_streams_per_account: usize,
    /// Live event streams one anonymous client address may hold open at once in one process.
    /// 0: no cap.
    #[arg(
        long,
        env = "TURNIER_EVENT_STREAMS_PER_ADDRESS",
        value_name = "N",
        default_value_t = streams::DEFAULT_PER_ADDRESS,
        value_parser = kit::config::whole_number(0..=100_000_usize)
    )]
    pub event_streams_per_address: usize,
}

impl Default for EventStreamArgs {
    fn default() -> Self {
        Self {
            event_streams_per_account: streams::DEFAULT_PER_ACCOUNT,
            event_streams_per_address: streams::DEFAULT_PER_ADDRESS,
        }
    }
}

impl EventStreamArgs {
    /// Returns the caps these settings give.
    pub fn limits(&self) -> streams::StreamLimits {
        streams::StreamLimits {
            per_account: self.event_streams_per_account,
            per_address: self.event_streams_per_address,
        }
    }
}

/// The submission worker's settings, as flags and environment variables the binary flattens.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Submission worker")]
pub struct WorkerArgs {
    /// Jobs one worker process runs at once (lineup checks, and webhook deliveries apart);
    /// 0 in the all-in-one process runs no worker there (workers run as their own role).
    #[arg(
        long,
        env = "TURNIER_WORKER_CONCURRENCY",
        value_name = "N",
        default_value_t = worker::DEFAULT_CONCURRENCY,
        value_parser = kit::config::whole_number(0..=256_usize)
    )]
    pub worker_concurrency: usize,
}

impl Default for WorkerArgs {
    fn default() -> Self {
        Self {
            worker_concurrency: worker::DEFAULT_CONCURRENCY,
        }
    }
}

/// The operator's webhook settings, as flags and environment variables the binary flattens.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Webhooks")]
pub struct WebhookArgs {
    /// The key every webhook's signing secret is derived from (at least 32 bytes; the
    /// tournaments service and every worker need the same one). Unset: the all-in-one process
    /// keeps a random one in <state dir>/webhook.key; other roles take no webhooks.
    #[arg(
        long,
        env = "TURNIER_WEBHOOK_KEY",
        value_name = "KEY",
        hide_env_values = true
    )]
    pub webhook_key: Option<String>,
    /// Lets webhooks be sent to loopback, private, shared, unique-local and link-local
    /// addresses (never to other addresses that are not globally reachable): true or false.
    #[arg(
        long,
        env = "TURNIER_WEBHOOK_ALLOW_PRIVATE",
        value_name = "BOOL",
        default_value_t = false,
        action = clap::ArgAction::Set,
        value_parser = kit::config::boolean
    )]
    pub webhook_allow_private: bool,
}

impl Mount for Tournaments {
    const SERVICE: Service = Service::Tournaments;
    type Settings = Settings;

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        deps: &Deps,
        settings: &Settings,
    ) -> Result<(), MountError> {
        // Tournaments live in the process's database: a process without one fails here.
        let store = store::TournamentStore::new(deps.database(Self::SERVICE)?.clone());
        let accounts = AccountsClient::connect_lazy(deps.url(Service::Accounts))?;
        let scripts = ScriptsClient::connect_lazy(deps.url(Service::Scripts))?;
        let mut tournaments = service::Tournaments::new(store, Some(accounts), Some(scripts));
        if let Some(queue) = &settings.queue {
            tournaments = tournaments.with_queue(queue.clone());
        }
        tournaments = tournaments
            .with_webhooks(settings.webhooks.clone())
            .with_stream_limits(settings.streams);
        routes.add_service(grpc::server(grpc::Api::new(tournaments)));
        Ok(())
    }

    fn migrator() -> Option<&'static sqlx::migrate::Migrator> {
        Some(&store::MIGRATOR)
    }
}
