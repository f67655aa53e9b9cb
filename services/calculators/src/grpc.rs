//! The tonic implementation of `turnier.calculators.v1.CalculatorService`: each method reads
//! its caller and converts; the work is in `crate::service`, errors become `Status` once, in
//! `crate::error`.

use kit::auth::Caller;
use proto::calculators::v1 as pb;
use proto::calculators::v1::calculator_service_server::{
    CalculatorService, CalculatorServiceServer,
};
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::service::{self, Calculators};

/// The `CalculatorService` implementation.
#[derive(Debug, Clone)]
pub struct Api {
    calculators: Calculators,
}

impl Api {
    /// Serves `calculators`.
    pub fn new(calculators: Calculators) -> Self {
        Self { calculators }
    }
}

fn one(calculator: pb::Calculator) -> Response<pb::CalculatorResponse> {
    Response::new(pb::CalculatorResponse {
        calculator: Some(calculator),
    })
}

fn game(value: i32) -> Result<proto::game::Game, Error> {
    proto::game::from_wire(value).ok_or(Error::MissingField("game"))
}

#[tonic::async_trait]
impl CalculatorService for Api {
    async fn list_calculators(
        &self,
        request: Request<pb::ListCalculatorsRequest>,
    ) -> Result<Response<pb::ListCalculatorsResponse>, Status> {
        let caller = Caller::of(&request);
        let calculators = self
            .calculators
            .list(&caller, game(request.get_ref().game)?)
            .await?;
        Ok(Response::new(pb::ListCalculatorsResponse { calculators }))
    }

    async fn create_calculator(
        &self,
        request: Request<pb::CreateCalculatorRequest>,
    ) -> Result<Response<pb::CalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(one(self
            .calculators
            .create(&caller, request.into_inner())
            .await?))
    }

    async fn get_calculator(
        &self,
        request: Request<pb::GetCalculatorRequest>,
    ) -> Result<Response<pb::CalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        Ok(one(self
            .calculators
            .get(&caller, game(request.game)?, &request.id)
            .await?))
    }

    async fn update_calculator(
        &self,
        request: Request<pb::UpdateCalculatorRequest>,
    ) -> Result<Response<pb::CalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(one(self
            .calculators
            .update(&caller, request.into_inner())
            .await?))
    }

    async fn delete_calculator(
        &self,
        request: Request<pb::DeleteCalculatorRequest>,
    ) -> Result<Response<pb::DeleteCalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        self.calculators
            .delete(&caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::DeleteCalculatorResponse {}))
    }

    async fn duplicate_calculator(
        &self,
        request: Request<pb::DuplicateCalculatorRequest>,
    ) -> Result<Response<pb::CalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        Ok(one(self
            .calculators
            .duplicate(&caller, game(request.game)?, &request.id)
            .await?))
    }

    async fn run_calculator(
        &self,
        request: Request<pb::RunCalculatorRequest>,
    ) -> Result<Response<pb::RunCalculatorResponse>, Status> {
        let caller = Caller::of(&request);
        let dashboard = self.calculators.run(&caller, request.into_inner()).await?;
        Ok(Response::new(pb::RunCalculatorResponse {
            dashboard: Some(dashboard),
        }))
    }

    async fn build_calculator(
        &self,
        request: Request<pb::BuildCalculatorRequest>,
    ) -> Result<Response<pb::BuildCalculatorResponse>, Status> {
        let request = request.into_inner();
        let source = service::build(request.game, &request.spec_json)?;
        Ok(Response::new(pb::BuildCalculatorResponse { source }))
    }

    async fn inspect_calculator(
        &self,
        request: Request<pb::InspectCalculatorRequest>,
    ) -> Result<Response<pb::InspectCalculatorResponse>, Status> {
        let request = request.into_inner();
        Ok(Response::new(service::inspect_source(
            request.game,
            &request.source,
        )?))
    }

    async fn list_calculator_fields(
        &self,
        request: Request<pb::ListCalculatorFieldsRequest>,
    ) -> Result<Response<pb::ListCalculatorFieldsResponse>, Status> {
        let fields = self.calculators.fields(request.get_ref().game).await?;
        Ok(Response::new(pb::ListCalculatorFieldsResponse { fields }))
    }

    async fn list_public_calculators(
        &self,
        request: Request<pb::ListPublicCalculatorsRequest>,
    ) -> Result<Response<pb::ListCalculatorsResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let calculators = self
            .calculators
            .list_public(
                &caller,
                &request.username,
                proto::game::from_wire(request.game),
            )
            .await?;
        Ok(Response::new(pb::ListCalculatorsResponse { calculators }))
    }
}

/// Returns the tonic server for this service.
pub fn server(api: Api) -> CalculatorServiceServer<Api> {
    CalculatorServiceServer::new(api)
}
