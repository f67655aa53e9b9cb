//! The calculators service: calculators' defaults per game, no-code builder specs, dashboards
//! (`turnier.calculators.v1.CalculatorService`).
//!
//! Its domain is here: the builder's fields per game, its spec (version 1) and the script
//! generated from a spec (`domain`). Its RPCs, tables and callers arrive with the rest of its
//! issue; until then it serves only the gRPC health protocol and server reflection (added by
//! `kit::server`), owns nothing and calls no one. Calculator scripts run in the scripts
//! service.

pub mod defaults;
pub mod domain;
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
