//! The tournaments service's client.

use std::time::Duration;

use crate::client::TracedChannel;
use crate::status::ServiceError;
use proto::tournaments::v1 as pb;
use proto::tournaments::v1::tournament_service_client::TournamentServiceClient;

use crate::clients::call::{CallOptions, client, rpc};

/// Pairing a large Swiss round takes the engine a while; everything else is quick.
pub const DEFAULT_OPTIONS: CallOptions = CallOptions {
    deadline: Duration::from_secs(30),
    max_decoding_bytes: 64 << 20,
};

client!(
    /// A client of `turnier.tournaments.v1.TournamentService`. Cheap to clone. Reads are
    /// retried when a retry can help; changes are sent once.
    TournamentsClient,
    TournamentServiceClient<TracedChannel>,
    DEFAULT_OPTIONS
);

impl TournamentsClient {
    /// Creates a tournament; the caller organizes it.
    pub async fn create_tournament(
        &self,
        request: pb::CreateTournamentRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, create_tournament)
    }

    /// Returns a tournament.
    pub async fn get_tournament(
        &self,
        request: pb::GetTournamentRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_tournament)
    }

    /// Lists a game's tournaments.
    pub async fn list_tournaments(
        &self,
        request: pb::ListTournamentsRequest,
    ) -> Result<pb::ListTournamentsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_tournaments)
    }

    /// The settings a new stage of a format starts from in a game.
    pub async fn get_stage_defaults(
        &self,
        request: pb::GetStageDefaultsRequest,
    ) -> Result<pb::StageDefaultsResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_stage_defaults)
    }

    /// Opens or closes registration, or changes a running stage's settings.
    pub async fn update_tournament(
        &self,
        request: pb::UpdateTournamentRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, update_tournament)
    }

    /// Adds a co-organizer.
    pub async fn add_organizer(
        &self,
        request: pb::AddOrganizerRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, add_organizer)
    }

    /// Starts the event.
    pub async fn start_tournament(
        &self,
        request: pb::StartTournamentRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, start_tournament)
    }

    /// Applies the complete stage's advancement rules.
    pub async fn advance_tournament(
        &self,
        request: pb::AdvanceTournamentRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, advance_tournament)
    }

    /// Signs up the caller or a guest.
    pub async fn register(
        &self,
        request: pb::RegisterRequest,
    ) -> Result<pb::RegistrationResponse, ServiceError> {
        rpc!(self, Once, request, register)
    }

    /// Lists the registrations.
    pub async fn list_registrations(
        &self,
        request: pb::ListRegistrationsRequest,
    ) -> Result<pb::ListRegistrationsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_registrations)
    }

    /// Unregisters, checks in, drops, reinstates or fixes a table.
    pub async fn change_registration(
        &self,
        request: pb::ChangeRegistrationRequest,
    ) -> Result<pb::RegistrationResponse, ServiceError> {
        rpc!(self, Once, request, change_registration)
    }

    /// Pairs the next round.
    pub async fn pair_round(
        &self,
        request: pb::PairRoundRequest,
    ) -> Result<pb::RoundResponse, ServiceError> {
        rpc!(self, Once, request, pair_round)
    }

    /// Returns a round.
    pub async fn get_round(
        &self,
        request: pb::GetRoundRequest,
    ) -> Result<pb::RoundResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_round)
    }

    /// Starts, pauses or extends the round timer.
    pub async fn control_timer(
        &self,
        request: pb::ControlTimerRequest,
    ) -> Result<pb::RoundResponse, ServiceError> {
        rpc!(self, Once, request, control_timer)
    }

    /// Reports, confirms, enters or corrects a result.
    pub async fn report_result(
        &self,
        request: pb::ReportResultRequest,
    ) -> Result<pb::MatchResponse, ServiceError> {
        rpc!(self, Once, request, report_result)
    }

    /// Returns a stage's standings.
    pub async fn get_standings(
        &self,
        request: pb::GetStandingsRequest,
    ) -> Result<pb::StandingsResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_standings)
    }

    /// Returns a stage in the offline tool's format.
    pub async fn export_stage(
        &self,
        request: pb::ExportStageRequest,
    ) -> Result<pb::ExportStageResponse, ServiceError> {
        rpc!(self, Idempotent, request, export_stage)
    }

    /// Submits a lineup.
    pub async fn submit_lineup(
        &self,
        request: pb::SubmitLineupRequest,
    ) -> Result<pb::SubmissionResponse, ServiceError> {
        rpc!(self, Once, request, submit_lineup)
    }

    /// Returns a registration's latest lineup.
    pub async fn get_lineup(
        &self,
        request: pb::GetLineupRequest,
    ) -> Result<pb::SubmissionResponse, ServiceError> {
        rpc!(self, Idempotent, request, get_lineup)
    }

    /// Returns every latest lineup the caller may see.
    pub async fn list_lineups(
        &self,
        request: pb::ListLineupsRequest,
    ) -> Result<pb::ListLineupsResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_lineups)
    }

    /// Lets one player submit after the deadline.
    pub async fn unlock_lineup(
        &self,
        request: pb::UnlockLineupRequest,
    ) -> Result<pb::TournamentResponse, ServiceError> {
        rpc!(self, Once, request, unlock_lineup)
    }

    /// Checks a registration's latest lineup again.
    pub async fn recheck_lineup(
        &self,
        request: pb::RecheckLineupRequest,
    ) -> Result<pb::SubmissionResponse, ServiceError> {
        rpc!(self, Once, request, recheck_lineup)
    }

    /// Follows a tournament's events from after `request.after_seq`, as they happen: a stream
    /// with no deadline (it lasts as long as the caller reads it).
    pub async fn watch_tournament(
        &self,
        request: pb::WatchTournamentRequest,
    ) -> Result<tonic::Streaming<pb::TournamentEvent>, ServiceError> {
        let mut request = tonic::Request::new(request);
        if let Some(caller) = self.caller {
            crate::caller::name(&mut request, caller);
        }
        if let Some(bearer) = &self.bearer {
            bearer.insert_into(request.metadata_mut());
        }
        let mut inner = self.inner.clone();
        inner
            .watch_tournament(request)
            .await
            .map(tonic::Response::into_inner)
            .map_err(ServiceError::from)
    }

    /// Organizers: registers a webhook (the answer holds its secret, shown only then).
    pub async fn add_webhook(
        &self,
        request: pb::AddWebhookRequest,
    ) -> Result<pb::AddWebhookResponse, ServiceError> {
        rpc!(self, Once, request, add_webhook)
    }

    /// Organizers: the tournament's webhooks.
    pub async fn list_webhooks(
        &self,
        request: pb::ListWebhooksRequest,
    ) -> Result<pb::ListWebhooksResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_webhooks)
    }

    /// Organizers: removes a webhook.
    pub async fn remove_webhook(
        &self,
        request: pb::RemoveWebhookRequest,
    ) -> Result<pb::RemoveWebhookResponse, ServiceError> {
        rpc!(self, Once, request, remove_webhook)
    }

    /// Organizers: a webhook's latest deliveries.
    pub async fn list_webhook_deliveries(
        &self,
        request: pb::ListWebhookDeliveriesRequest,
    ) -> Result<pb::ListWebhookDeliveriesResponse, ServiceError> {
        rpc!(self, Idempotent, request, list_webhook_deliveries)
    }

    /// Organizers: sends a delivery again.
    pub async fn redeliver_webhook(
        &self,
        request: pb::RedeliverWebhookRequest,
    ) -> Result<pb::WebhookDeliveryResponse, ServiceError> {
        rpc!(self, Once, request, redeliver_webhook)
    }
}
