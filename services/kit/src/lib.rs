//! Plumbing shared by every Turnier service: configuration, telemetry, metrics, databases,
//! the job queue and the gRPC server bootstrap.
//!
//! Nothing here knows about cards, decks or tournaments: domain types live in the service
//! crates. The one exception is the list of games (`game`), which every service shares. A service crate uses `kit` to be served; the `turnier` binary uses it to decide
//! what to serve.

pub mod client;
pub mod config;
pub mod db;
pub mod game;
pub mod metrics;
pub mod queue;
pub mod server;
pub mod services;
pub mod shutdown;
pub mod status;
pub mod telemetry;
pub mod testing;
