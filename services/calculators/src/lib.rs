//! The calculators service: calculators' defaults per game, no-code builder specs, dashboards
//! (`turnier.calculators.v1.CalculatorService`).
//!
//! Its RPCs, tables and callers arrive with the issue that builds it; until then it serves only
//! the gRPC health protocol and server reflection (added by `kit::server`), owns nothing and
//! calls no one. Calculator scripts already run in the scripts service.

pub mod grpc;

use kit::server::{Deps, Mount, MountError};
use kit::services::Service;

/// The calculators service, as `turnier serve` mounts it.
#[derive(Debug)]
pub struct Calculators;

impl Mount for Calculators {
    const SERVICE: Service = Service::Calculators;
    type Settings = ();

    fn mount(
        routes: &mut tonic::service::RoutesBuilder,
        _deps: &Deps,
        (): &(),
    ) -> Result<(), MountError> {
        routes.add_service(grpc::server());
        Ok(())
    }
}
