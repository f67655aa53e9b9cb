//! One typed client per Turnier service (plumbing over the `proto` contracts, so it lives in
//! `kit`, where services meet): what the gateway, every service that calls another,
//! and the command-line tools use to reach a service, so that there is one way to do it.
//!
//! Each client wraps the generated tonic client on a traced channel ([`crate::client`]: calls
//! carry the caller's trace context, DNS names are balanced over every pod), and gives every
//! call the same treatment ([`call`]): a deadline, a decode limit fit for the service's
//! answers, and retries with backoff for idempotent calls only, when the error says a retry
//! can help. Errors come back as [`ServiceError`], the rich error model read back into a typed
//! value (reason, metadata, field violations, whether a retry can help), never a bare status.
//!
//! The catalog's client also keeps what other services build from a whole catalog
//! ([`catalog::PerCatalogVersion`]), since that cache is about reading the catalog.

pub mod accounts;
pub mod calculators;
pub mod call;
pub mod catalog;
pub mod decks;
pub mod scripts;
pub mod search;
pub mod tournaments;

pub use crate::client::ClientError;
pub use crate::status::{ServiceError, Violation};
pub use accounts::AccountsClient;
pub use calculators::CalculatorsClient;
pub use call::CallOptions;
pub use catalog::CatalogClient;
pub use decks::DecksClient;
pub use scripts::ScriptsClient;
pub use search::SearchClient;
pub use tournaments::TournamentsClient;
