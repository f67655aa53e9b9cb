//! The tonic implementation of `turnier.calculators.v1.CalculatorService`.

use proto::calculators::v1::calculator_service_server::{
    CalculatorService, CalculatorServiceServer,
};

/// The `CalculatorService` implementation.
#[derive(Debug, Clone, Default)]
pub struct Api;

impl CalculatorService for Api {}

/// Returns the tonic server for this service.
pub fn server() -> CalculatorServiceServer<Api> {
    CalculatorServiceServer::new(Api)
}
