//! The errors that stop the gateway from starting or serving (not the errors it answers to
//! clients: those are [`crate::ApiError`]).

use crate::upstream::UpstreamError;

/// Why [`crate::serve`] failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A service's address cannot be dialled.
    #[error(transparent)]
    Upstream(#[from] UpstreamError),
    // No variant for serving: the listener retries a failed accept (`kit::listener`), so
    // serving never fails once started.
}
