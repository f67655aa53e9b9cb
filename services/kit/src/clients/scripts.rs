//! The scripts service's client.

use std::time::Duration;

use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::scripts::v1 as pb;
use proto::scripts::v1::script_service_client::ScriptServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// A card pool over a whole catalog answers with one verdict per card (about 2 MB for the
/// 14,901 Pokémon cards); its run may take a few seconds.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(60),
    max_decoding_bytes: 64 << 20,
};

client!(
    /// A client of `turnier.scripts.v1.ScriptService`. Cheap to clone. A run has no effect
    /// beyond its answer (and the compiled-script cache), so every call is retried when a
    /// retry can help.
    ScriptsClient,
    ScriptServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl ScriptsClient {
    /// Runs the static safety check; a safe script is compiled and its hash returned.
    pub async fn check_script(
        &self,
        request: pb::CheckScriptRequest,
    ) -> Result<pb::CheckScriptResponse, ServiceError> {
        rpc!(self, Idempotent, request, check_script)
    }

    /// Runs a card rule on one card.
    pub async fn run_card_rule(
        &self,
        request: pb::RunCardRuleRequest,
    ) -> Result<pb::RuleRunResponse, ServiceError> {
        rpc!(self, Idempotent, request, run_card_rule)
    }

    /// Runs a card rule over many cards, or a game's whole catalog.
    pub async fn filter_card_pool(
        &self,
        request: pb::FilterCardPoolRequest,
    ) -> Result<pb::FilterCardPoolResponse, ServiceError> {
        rpc!(self, Idempotent, request, filter_card_pool)
    }

    /// Runs a deck rule on one deck.
    pub async fn run_deck_rule(
        &self,
        request: pb::RunDeckRuleRequest,
    ) -> Result<pb::RuleRunResponse, ServiceError> {
        rpc!(self, Idempotent, request, run_deck_rule)
    }

    /// Runs a deck set rule on a lineup.
    pub async fn run_deckset_rule(
        &self,
        request: pb::RunDecksetRuleRequest,
    ) -> Result<pb::RuleRunResponse, ServiceError> {
        rpc!(self, Idempotent, request, run_deckset_rule)
    }

    /// Runs a deck rule's `resolvePoolFilters` hook.
    pub async fn resolve_pool_filters(
        &self,
        request: pb::ResolvePoolFiltersRequest,
    ) -> Result<pb::ResolvePoolFiltersResponse, ServiceError> {
        rpc!(self, Idempotent, request, resolve_pool_filters)
    }

    /// Runs a calculator's `compute`.
    pub async fn run_calculator(
        &self,
        request: pb::RunCalculatorRequest,
    ) -> Result<pb::RunCalculatorResponse, ServiceError> {
        rpc!(self, Idempotent, request, run_calculator)
    }

    /// Lists the built-in rules of a game and the caller's own and downloaded rulesets.
    pub async fn list_rulesets(
        &self,
        request: pb::ListRulesetsRequest,
    ) -> Result<pb::ListRulesetsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_rulesets)
    }

    /// Saves a new ruleset of the caller's.
    pub async fn create_ruleset(
        &self,
        request: pb::CreateRulesetRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Once, request, create_ruleset)
    }

    /// Returns a ruleset the caller may see.
    pub async fn get_ruleset(
        &self,
        request: pb::GetRulesetRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_ruleset)
    }

    /// Changes a ruleset of the caller's.
    pub async fn update_ruleset(
        &self,
        request: pb::UpdateRulesetRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Once, request, update_ruleset)
    }

    /// Deletes a ruleset of the caller's.
    pub async fn delete_ruleset(
        &self,
        request: pb::DeleteRulesetRequest,
    ) -> Result<pb::DeleteRulesetResponse, ServiceError> {
        rpc!(self, Idempotent, request, delete_ruleset)
    }

    /// Copies a ruleset the caller may see into a new private one of the caller's.
    pub async fn duplicate_ruleset(
        &self,
        request: pb::DuplicateRulesetRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Once, request, duplicate_ruleset)
    }

    /// Saves a downloaded copy of a ruleset, pinned to a version.
    pub async fn save_ruleset(
        &self,
        request: pb::SaveRulesetRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Once, request, save_ruleset)
    }

    /// Moves a downloaded copy to its original's latest version.
    pub async fn update_ruleset_copy(
        &self,
        request: pb::UpdateRulesetCopyRequest,
    ) -> Result<pb::RulesetResponse, ServiceError> {
        rpc!(self, Idempotent, request, update_ruleset_copy)
    }

    /// Lists a user's public rulesets (what their profile shows).
    pub async fn list_public_rulesets(
        &self,
        request: pb::ListPublicRulesetsRequest,
    ) -> Result<pb::ListRulesetsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_public_rulesets)
    }

    /// Checks a whole deck: zone rules, the card rule, the whole-deck or deck set rule.
    pub async fn validate_deck(
        &self,
        request: pb::ValidateDeckRequest,
    ) -> Result<pb::ValidateDeckResponse, ServiceError> {
        rpc!(self, Idempotent, request, validate_deck)
    }
}
