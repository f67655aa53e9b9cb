//! Plumbing shared by every Turnier service: configuration, telemetry, metrics, the gRPC
//! server bootstrap and channels, one typed client per service (`clients`), the error model
//! on the wire (`status`), who a request is for (`caller`) and who makes it (`auth`, with the one ownership rule in `access`), the abuse limits both edges share (`limits`), the listeners both edges accept on (`listener`), the one text rule for names, free text and ids (`text`), and (behind features) databases, the job queue and test support.
//!
//! Nothing here knows about cards, decks or tournaments: domain types live in the service
//! crates, and the one value they share (the game) in `proto::game`. Services meet only here
//! and in `proto`. A service crate uses `kit` to be served and to call the others; the
//! `turnier` binary uses it to decide what to serve. The gateway uses it without the `db` and
//! `queue` features, so it links no database driver.

pub mod access;
pub mod auth;
pub mod cache;
pub mod caller;
pub mod client;
pub mod clients;
pub mod config;
#[cfg(feature = "db")]
pub mod db;
pub mod internal;
pub mod limits;
pub mod listener;
pub mod message_limit;
pub mod metrics;
pub mod owner_only;
#[cfg(feature = "queue")]
pub mod queue;
pub mod server;
pub mod services;
pub mod shutdown;
pub mod status;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod timestamp;
