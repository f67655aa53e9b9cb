//! The tonic implementation of `turnier.scripts.v1.ScriptService`.

use proto::scripts::v1::script_service_server::{ScriptService, ScriptServiceServer};

/// The `ScriptService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl ScriptService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> ScriptServiceServer<Api> {
    ScriptServiceServer::new(Api)
}
