//! The roles the `turnier` binary can take, their proto names and their default ports.
//!
//! One table so that the binary, the gateway's readiness check, the manifests and the tests
//! agree on names. Adding a service is a row here plus its crate.

use std::fmt;
use std::str::FromStr;

/// A gRPC service of the platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Service {
    /// Accounts, sessions and API tokens; who a bearer token is.
    Accounts,
    /// Cards, printings, aliases and globals per game.
    Catalog,
    /// The card search language.
    Search,
    /// Deck codes, deck lists, formats and rulings.
    Decks,
    /// The JavaScript safety check, compilation and sandbox.
    Scripts,
    /// The tournament engine and deck submission.
    Tournaments,
    /// Calculators.
    Calculators,
}

impl Service {
    /// Every service, in the order they are started and listed.
    pub const ALL: [Service; 7] = [
        Service::Accounts,
        Service::Catalog,
        Service::Search,
        Service::Decks,
        Service::Scripts,
        Service::Tournaments,
        Service::Calculators,
    ];

    /// Returns the short name used on the command line, in env vars and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Service::Accounts => "accounts",
            Service::Catalog => "catalog",
            Service::Search => "search",
            Service::Decks => "decks",
            Service::Scripts => "scripts",
            Service::Tournaments => "tournaments",
            Service::Calculators => "calculators",
        }
    }

    /// Returns the fully qualified protobuf service name, as health checks and reflection use it.
    pub fn proto_name(self) -> &'static str {
        match self {
            Service::Accounts => "turnier.accounts.v1.AccountService",
            Service::Catalog => "turnier.catalog.v1.CatalogService",
            Service::Search => "turnier.search.v1.SearchService",
            Service::Decks => "turnier.decks.v1.DeckService",
            Service::Scripts => "turnier.scripts.v1.ScriptService",
            Service::Tournaments => "turnier.tournaments.v1.TournamentService",
            Service::Calculators => "turnier.calculators.v1.CalculatorService",
        }
    }

    /// Returns the gRPC port this service listens on by default when it runs alone
    /// (`turnier serve --only <name>`), so every service can run on one machine at once.
    pub fn default_port(self) -> u16 {
        match self {
            Service::Catalog => 50052,
            Service::Search => 50053,
            Service::Decks => 50054,
            Service::Scripts => 50055,
            Service::Tournaments => 50056,
            Service::Calculators => 50057,
            // After the others: their ports were taken first.
            Service::Accounts => 50058,
        }
    }

    /// Returns the port of this service's Prometheus endpoint when it runs alone.
    pub fn default_metrics_port(self) -> u16 {
        self.default_port() - 50052 + 9102
    }

    /// Returns the environment variable that gives this service's gRPC address to its clients.
    pub fn url_env(self) -> &'static str {
        match self {
            Service::Accounts => "TURNIER_ACCOUNTS_URL",
            Service::Catalog => "TURNIER_CATALOG_URL",
            Service::Search => "TURNIER_SEARCH_URL",
            Service::Decks => "TURNIER_DECKS_URL",
            Service::Scripts => "TURNIER_SCRIPTS_URL",
            Service::Tournaments => "TURNIER_TOURNAMENTS_URL",
            Service::Calculators => "TURNIER_CALCULATORS_URL",
        }
    }
}

impl fmt::Display for Service {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a service name that is not one of [`Service::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown service `{0}` (expected one of: accounts, catalog, search, decks, scripts, tournaments, calculators, gateway)"
)]
pub struct UnknownService(pub String);

impl FromStr for Service {
    type Err = UnknownService;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Service::ALL
            .into_iter()
            .find(|service| service.name() == s)
            .ok_or_else(|| UnknownService(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_service_parses_from_its_own_name() {
        for service in Service::ALL {
            assert_eq!(service.name().parse::<Service>(), Ok(service));
        }
    }

    #[test]
    fn rejects_an_unknown_service_name_and_lists_the_known_ones() {
        let err = "catalogue".parse::<Service>().unwrap_err();
        assert!(err.to_string().contains("`catalogue`"));
        assert!(err.to_string().contains("tournaments"));
    }

    #[test]
    fn default_ports_are_distinct() {
        let mut ports: Vec<u16> = Service::ALL.iter().map(|s| s.default_port()).collect();
        ports.extend(Service::ALL.iter().map(|s| s.default_metrics_port()));
        ports.sort_unstable();
        ports.dedup();
        assert_eq!(ports.len(), 14);
    }
}
