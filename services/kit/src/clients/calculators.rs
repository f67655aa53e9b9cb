//! The calculators service's client.

use std::time::Duration;

use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::calculators::v1 as pb;
use proto::calculators::v1::calculator_service_client::CalculatorServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// A run waits for the scripts service (5 s at most for the script itself) and the catalog.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(30),
    max_decoding_bytes: 16 << 20,
};

client!(
    /// A client of `turnier.calculators.v1.CalculatorService`. Cheap to clone. Reads and runs
    /// are retried when a retry can help; creations and changes are sent once.
    CalculatorsClient,
    CalculatorServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl CalculatorsClient {
    /// Lists a game's default and the caller's calculators.
    pub async fn list_calculators(
        &self,
        request: pb::ListCalculatorsRequest,
    ) -> Result<pb::ListCalculatorsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_calculators)
    }

    /// Saves a new calculator of the caller's.
    pub async fn create_calculator(
        &self,
        request: pb::CreateCalculatorRequest,
    ) -> Result<pb::CalculatorResponse, ServiceError> {
        rpc!(self, Once, request, create_calculator)
    }

    /// Returns a calculator the caller may see.
    pub async fn get_calculator(
        &self,
        request: pb::GetCalculatorRequest,
    ) -> Result<pb::CalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_calculator)
    }

    /// Changes a calculator of the caller's, or switches a default on or off.
    pub async fn update_calculator(
        &self,
        request: pb::UpdateCalculatorRequest,
    ) -> Result<pb::CalculatorResponse, ServiceError> {
        rpc!(self, Once, request, update_calculator)
    }

    /// Deletes a calculator of the caller's.
    pub async fn delete_calculator(
        &self,
        request: pb::DeleteCalculatorRequest,
    ) -> Result<pb::DeleteCalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, delete_calculator)
    }

    /// Copies a calculator the caller may see into a new private one.
    pub async fn duplicate_calculator(
        &self,
        request: pb::DuplicateCalculatorRequest,
    ) -> Result<pb::CalculatorResponse, ServiceError> {
        rpc!(self, Once, request, duplicate_calculator)
    }

    /// Runs a calculator on a deck or a deck set.
    pub async fn run_calculator(
        &self,
        request: pb::RunCalculatorRequest,
    ) -> Result<pb::RunCalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, run_calculator)
    }

    /// Generates the script of a builder spec.
    pub async fn build_calculator(
        &self,
        request: pb::BuildCalculatorRequest,
    ) -> Result<pb::BuildCalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, build_calculator)
    }

    /// Tells whether a source opens in the builder.
    pub async fn inspect_calculator(
        &self,
        request: pb::InspectCalculatorRequest,
    ) -> Result<pb::InspectCalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, inspect_calculator)
    }

    /// Lists the builder's card fields of a game.
    pub async fn list_calculator_fields(
        &self,
        request: pb::ListCalculatorFieldsRequest,
    ) -> Result<pb::ListCalculatorFieldsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_calculator_fields)
    }

    /// Lists a user's public calculators.
    pub async fn list_public_calculators(
        &self,
        request: pb::ListPublicCalculatorsRequest,
    ) -> Result<pb::ListCalculatorsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_public_calculators)
    }
}
