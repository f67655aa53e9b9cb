//! The platform's tests, in one binary (one link, one start): the real `turnier` binary on the
//! command line and serving, the gateway over HTTP, the gRPC error model as a third party reads
//! it, the architecture's rules, and the tests that need more than one service crate (the search
//! engine and script pools over the real catalog), since no service crate depends on another.

mod account_cli;
mod accounts_gateway;
mod architecture;
mod calculator_cli;
mod calculators_gateway;
mod catalog;
mod cli;
mod connections;
mod deck_cli;
mod deck_gateway;
mod deck_import;
mod deck_validate;
mod error_model;
mod format_cli;
mod format_gateway;
mod hostile_input;

mod lineup_chaos;
mod lineups;
mod ownership;
mod queue_cli;
mod ruleset_cli;
mod rulesets_gateway;
mod saved_decks;
mod script_cli;
mod script_flood;
mod script_gateway;
mod script_pools;
mod search;
mod search_engine;
mod serve;
mod state_hardening;
mod support;
mod templates;
mod tournament_cli;
mod tournament_server_cli;
mod tournaments_gateway;
mod web;
mod webhooks;
