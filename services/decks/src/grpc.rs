//! The tonic implementation of `turnier.decks.v1.DeckService`: converts requests to domain
//! types, calls the pure format rules, converts back. Errors become `Status` once, in
//! `crate::error`.
//!
//! Formats travel in the request as their documented JSON text, so nothing here is stored.

use kit::auth::{Bearer, Caller};
use proto::decks::v1 as pb;
use proto::decks::v1::deck_service_server::{DeckService, DeckServiceServer};
use tonic::{Request, Response, Status};

use crate::Error;
use crate::domain::format::{
    Authority, Card, CardId, CardRuling, CopyLimit, Deck, Format, Problem, Report, TabooListRef,
    parse_moment,
};
use crate::domain::saved::Kind;
use crate::saved::{SavedDecks, deck_to_proto, next_page_token};
use crate::templates::Templates;

/// The `DeckService` implementation.
#[derive(Debug, Clone)]
pub struct Api {
    /// Where imported decks find their cards.
    catalog: kit::clients::CatalogClient,
    /// The saved decks and deck sets.
    saved: SavedDecks,
    /// The templates.
    templates: Templates,
}

impl Api {
    /// Creates the service; imports and shared decks find their cards through `catalog`, and
    /// `saved` keeps what players save.
    pub fn new(
        catalog: kit::clients::CatalogClient,
        saved: SavedDecks,
        templates: Templates,
    ) -> Self {
        Self {
            catalog,
            saved,
            templates,
        }
    }

    /// Imports a pasted deck: reads it, finds its cards in the catalog, sorts them into piles.
    #[tracing::instrument(skip_all, fields(game = request.game, text_bytes = request.text.len()))]
    pub async fn import(
        &self,
        request: pb::ImportDeckRequest,
    ) -> Result<pb::ImportDeckResponse, Error> {
        if request.text.len() > MAX_DECK_TEXT_BYTES {
            return Err(Error::TooLarge {
                what: "deck text",
                limit: MAX_DECK_TEXT_BYTES,
            });
        }
        let game = game(request.game)?;
        let deck = crate::import::import_deck(
            &self.catalog,
            game,
            &request.text,
            request.layout == pb::DeckLayout::SingleDeck as i32,
        )
        .await?;
        Ok(pb::ImportDeckResponse {
            format: deck.format.to_owned(),
            piles: deck
                .piles
                .into_iter()
                .map(|(name, cards)| pb::DeckPile {
                    name: name.to_owned(),
                    cards: cards.into_iter().map(Into::into).collect(),
                })
                .collect(),
            chosen_champion: deck.chosen_champion,
            warnings: deck.warnings.into_iter().map(Into::into).collect(),
        })
    }

    /// Checks the request's deck against its format on its moment.
    #[tracing::instrument(skip_all, fields(format_bytes = request.format_json.len(),
        cards = request.deck.as_ref().map_or(0, |deck| deck.cards.len())))]
    pub async fn check_deck(
        &self,
        request: pb::CheckDeckAgainstFormatRequest,
    ) -> Result<pb::CheckDeckAgainstFormatResponse, Error> {
        // Reading a format of up to 1 MiB is CPU work measured in milliseconds: off the runtime.
        in_blocking_task(move || {
            let format = Format::from_json(&request.format_json)?;
            let moment = parse_moment(&request.moment)?;
            let deck = deck_from_proto(request.deck.as_ref().ok_or(Error::MissingField("deck"))?)?;
            Ok(report_to_proto(&format.check(&deck, &moment)))
        })
        .await
    }

    /// Returns the rules of the request's format on its moment for the cards asked about.
    #[tracing::instrument(skip_all, fields(format_bytes = request.format_json.len(),
        cards = request.cards.len()))]
    pub async fn ruling(
        &self,
        request: pb::GetRulingRequest,
    ) -> Result<pb::GetRulingResponse, Error> {
        in_blocking_task(move || {
            let format = Format::from_json(&request.format_json)?;
            let moment = parse_moment(&request.moment)?;
            let cards = request
                .cards
                .iter()
                .enumerate()
                .map(|(index, card)| ruling_card(index, card))
                .collect::<Result<Vec<_>, _>>()?;
            let ruling = format.ruling_on(&moment);
            Ok(pb::GetRulingResponse {
                format: Some(pb::FormatRef {
                    code: format.code().as_str().to_owned(),
                }),
                day: ruling.day().to_string(),
                taboo_list: ruling.taboo_list().map(|list| {
                    taboo_list_to_proto(&TabooListRef {
                        code: list.code().clone(),
                        effective_from: list.effective_from(),
                    })
                }),
                cards: cards
                    .iter()
                    .map(|card| card_ruling_to_proto(card.id(), &ruling.card(card)))
                    .collect(),
            })
        })
        .await
    }
}

#[tonic::async_trait]
impl DeckService for Api {
    async fn check_deck_against_format(
        &self,
        request: Request<pb::CheckDeckAgainstFormatRequest>,
    ) -> Result<Response<pb::CheckDeckAgainstFormatResponse>, Status> {
        Ok(Response::new(self.check_deck(request.into_inner()).await?))
    }

    async fn get_ruling(
        &self,
        request: Request<pb::GetRulingRequest>,
    ) -> Result<Response<pb::GetRulingResponse>, Status> {
        Ok(Response::new(self.ruling(request.into_inner()).await?))
    }

    async fn import_deck(
        &self,
        request: Request<pb::ImportDeckRequest>,
    ) -> Result<Response<pb::ImportDeckResponse>, Status> {
        Ok(Response::new(self.import(request.into_inner()).await?))
    }

    async fn export_deck(
        &self,
        request: Request<pb::ExportDeckRequest>,
    ) -> Result<Response<pb::ExportDeckResponse>, Status> {
        let request = request.into_inner();
        let game = game(request.game)?;
        let cards: Vec<crate::import::ExportCard> = request
            .cards
            .into_iter()
            .map(|card| crate::import::ExportCard {
                reference: card.r#ref,
                count: card.count,
                pile: card.pile,
            })
            .collect();
        let text = crate::import::export_deck(
            &self.catalog,
            game,
            &request.format,
            &cards,
            request.chosen_champion,
        )
        .await
        .map_err(Error::from)?;
        Ok(Response::new(pb::ExportDeckResponse { text }))
    }

    async fn list_deck_formats(
        &self,
        request: Request<pb::ListDeckFormatsRequest>,
    ) -> Result<Response<pb::ListDeckFormatsResponse>, Status> {
        let game = game(request.into_inner().game)?;
        let formats = crate::domain::lists::import_formats(game)
            .iter()
            .map(|format| pb::DeckFormatInfo {
                id: format.id().to_owned(),
                has_sideboard: format.has_sideboard(),
            })
            .collect();
        Ok(Response::new(pb::ListDeckFormatsResponse { formats }))
    }

    async fn save_deck(
        &self,
        request: Request<pb::SaveDeckRequest>,
    ) -> Result<Response<pb::SaveDeckResponse>, Status> {
        let (caller, bearer) = who(&request)?;
        let request = request.into_inner();
        let game = game(request.game)?;
        let saved = self
            .saved
            .save(Kind::Deck, &caller, bearer, game, request.into())
            .await?;
        Ok(Response::new(pb::SaveDeckResponse {
            deck: Some(deck_to_proto(&saved.deck)),
            replaced: saved.replaced,
            warnings: saved.warnings,
        }))
    }

    async fn get_deck(
        &self,
        request: Request<pb::GetDeckRequest>,
    ) -> Result<Response<pb::SavedDeckResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let deck = self
            .saved
            .get(Kind::Deck, &caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::SavedDeckResponse {
            deck: Some(deck_to_proto(&deck)),
        }))
    }

    async fn list_decks(
        &self,
        request: Request<pb::ListDecksRequest>,
    ) -> Result<Response<pb::ListDecksResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let page = self
            .saved
            .list(
                Kind::Deck,
                &caller,
                game(request.game)?,
                request.page_size,
                &request.page_token,
            )
            .await?;
        Ok(Response::new(pb::ListDecksResponse {
            decks: page.items.iter().map(deck_to_proto).collect(),
            next_page_token: next_page_token(&page),
        }))
    }

    async fn list_public_decks(
        &self,
        request: Request<pb::ListPublicDecksRequest>,
    ) -> Result<Response<pb::ListDecksResponse>, Status> {
        let caller = Caller::of(&request);
        let page = self.saved.list_public(&caller, request.get_ref()).await?;
        Ok(Response::new(pb::ListDecksResponse {
            decks: page.items.iter().map(deck_to_proto).collect(),
            next_page_token: next_page_token(&page),
        }))
    }

    async fn update_deck(
        &self,
        request: Request<pb::UpdateDeckRequest>,
    ) -> Result<Response<pb::SaveDeckResponse>, Status> {
        let (caller, bearer) = who(&request)?;
        let request = request.into_inner();
        let game = game(request.game)?;
        let changed = self
            .saved
            .update(Kind::Deck, &caller, bearer, game, request.into())
            .await?;
        Ok(Response::new(pb::SaveDeckResponse {
            deck: Some(deck_to_proto(&changed.deck)),
            replaced: false,
            warnings: changed.warnings,
        }))
    }

    async fn delete_deck(
        &self,
        request: Request<pb::DeleteDeckRequest>,
    ) -> Result<Response<pb::DeleteDeckResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        self.saved
            .delete(Kind::Deck, &caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::DeleteDeckResponse {}))
    }

    async fn save_deck_set(
        &self,
        request: Request<pb::SaveDeckSetRequest>,
    ) -> Result<Response<pb::SaveDeckSetResponse>, Status> {
        let (caller, bearer) = who(&request)?;
        let request = request.into_inner();
        let game = game(request.game)?;
        let saved = self
            .saved
            .save(Kind::DeckSet, &caller, bearer, game, request.into())
            .await?;
        Ok(Response::new(pb::SaveDeckSetResponse {
            deck_set: Some(deck_to_proto(&saved.deck)),
            replaced: saved.replaced,
            warnings: saved.warnings,
        }))
    }

    async fn get_deck_set(
        &self,
        request: Request<pb::GetDeckSetRequest>,
    ) -> Result<Response<pb::DeckSetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let set = self
            .saved
            .get(Kind::DeckSet, &caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::DeckSetResponse {
            deck_set: Some(deck_to_proto(&set)),
        }))
    }

    async fn list_deck_sets(
        &self,
        request: Request<pb::ListDeckSetsRequest>,
    ) -> Result<Response<pb::ListDeckSetsResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let page = self
            .saved
            .list(
                Kind::DeckSet,
                &caller,
                game(request.game)?,
                request.page_size,
                &request.page_token,
            )
            .await?;
        Ok(Response::new(pb::ListDeckSetsResponse {
            deck_sets: page.items.iter().map(deck_to_proto).collect(),
            next_page_token: next_page_token(&page),
        }))
    }

    async fn update_deck_set(
        &self,
        request: Request<pb::UpdateDeckSetRequest>,
    ) -> Result<Response<pb::SaveDeckSetResponse>, Status> {
        let (caller, bearer) = who(&request)?;
        let request = request.into_inner();
        let game = game(request.game)?;
        let changed = self
            .saved
            .update(Kind::DeckSet, &caller, bearer, game, request.into())
            .await?;
        Ok(Response::new(pb::SaveDeckSetResponse {
            deck_set: Some(deck_to_proto(&changed.deck)),
            replaced: false,
            warnings: changed.warnings,
        }))
    }

    async fn delete_deck_set(
        &self,
        request: Request<pb::DeleteDeckSetRequest>,
    ) -> Result<Response<pb::DeleteDeckSetResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        self.saved
            .delete(Kind::DeckSet, &caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::DeleteDeckSetResponse {}))
    }

    async fn list_templates(
        &self,
        request: Request<pb::ListTemplatesRequest>,
    ) -> Result<Response<pb::ListTemplatesResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(Response::new(
            self.templates.list(&caller, request.get_ref()).await?,
        ))
    }

    async fn save_template(
        &self,
        request: Request<pb::SaveTemplateRequest>,
    ) -> Result<Response<pb::SaveTemplateResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(Response::new(
            self.templates.save(&caller, request.into_inner()).await?,
        ))
    }

    async fn get_template(
        &self,
        request: Request<pb::GetTemplateRequest>,
    ) -> Result<Response<pb::TemplateResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let template = self
            .templates
            .get(&caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::TemplateResponse {
            template: Some(template),
        }))
    }

    async fn update_template(
        &self,
        request: Request<pb::UpdateTemplateRequest>,
    ) -> Result<Response<pb::TemplateResponse>, Status> {
        let caller = Caller::of(&request);
        let template = self.templates.update(&caller, request.into_inner()).await?;
        Ok(Response::new(pb::TemplateResponse {
            template: Some(template),
        }))
    }

    async fn delete_template(
        &self,
        request: Request<pb::DeleteTemplateRequest>,
    ) -> Result<Response<pb::DeleteTemplateResponse>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        self.templates
            .delete(&caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(pb::DeleteTemplateResponse {}))
    }

    async fn hide_template(
        &self,
        request: Request<pb::HideTemplateRequest>,
    ) -> Result<Response<pb::TemplateResponse>, Status> {
        let caller = Caller::of(&request);
        let template = self.templates.hide(&caller, request.get_ref()).await?;
        Ok(Response::new(pb::TemplateResponse {
            template: Some(template),
        }))
    }

    async fn list_public_templates(
        &self,
        request: Request<pb::ListPublicTemplatesRequest>,
    ) -> Result<Response<pb::ListTemplatesResponse>, Status> {
        let caller = Caller::of(&request);
        Ok(Response::new(
            self.templates
                .list_public(&caller, request.get_ref())
                .await?,
        ))
    }

    async fn import_into_template(
        &self,
        request: Request<pb::ImportIntoTemplateRequest>,
    ) -> Result<Response<pb::ImportIntoTemplateResponse>, Status> {
        let caller = Caller::of(&request);
        if request.get_ref().text.len() > MAX_DECK_TEXT_BYTES {
            return Err(Error::TooLarge {
                what: "deck text",
                limit: MAX_DECK_TEXT_BYTES,
            }
            .into());
        }
        Ok(Response::new(
            self.templates
                .import(&caller, &self.catalog, request.get_ref())
                .await?,
        ))
    }

    async fn get_shared_deck(
        &self,
        request: Request<pb::GetSharedDeckRequest>,
    ) -> Result<Response<pb::SharedDeck>, Status> {
        let request = request.into_inner();
        if request.code.len() > MAX_DECK_TEXT_BYTES {
            return Err(Error::TooLarge {
                what: "deck code",
                limit: MAX_DECK_TEXT_BYTES,
            }
            .into());
        }
        let deck = crate::share::shared(&self.catalog, game(request.game)?, &request.code).await?;
        Ok(Response::new(deck))
    }

    async fn export_saved_deck(
        &self,
        request: Request<pb::ExportSavedDeckRequest>,
    ) -> Result<Response<pb::SharedDeck>, Status> {
        let caller = Caller::of(&request);
        let request = request.into_inner();
        let deck = self
            .saved
            .get(Kind::Deck, &caller, game(request.game)?, &request.id)
            .await?;
        Ok(Response::new(
            crate::share::saved(&self.catalog, &deck).await?,
        ))
    }
}

/// Returns who makes `request`, and the token to forward to the services it calls on their
/// behalf (the scripts service reads the caller's own rulesets with it).
fn who<T>(request: &Request<T>) -> Result<(Caller, Option<Bearer>), Status> {
    let bearer = Bearer::from_metadata(request.metadata()).map_err(|err| err.to_failure())?;
    Ok((Caller::of(request), bearer))
}

/// The largest deck text an import reads.
pub const MAX_DECK_TEXT_BYTES: usize = 256 * 1024;

fn game(value: i32) -> Result<crate::domain::lists::Game, Error> {
    proto::game::from_wire(value).ok_or(Error::MissingField("game"))
}

/// Returns the tonic server for this service.
pub fn server(api: Api) -> DeckServiceServer<Api> {
    DeckServiceServer::new(api)
}

/// Runs `work` on the blocking pool, inside the calling request's span.
async fn in_blocking_task<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(work)).await?
}

/// Reads a deck sent over gRPC with the rules of the deck JSON.
///
/// The canonical proto3 JSON of `pb::Deck` is the documented deck JSON, so reading that JSON
/// applies the one set of deck rules (shapes, counts, limits, each card once) and names a bad
/// field by the same path `turnier format check` does (`cards[1].copyLimit`). A count of 0 is
/// proto3's absent value, so it is refused as missing.
fn deck_from_proto(deck: &pb::Deck) -> Result<Deck, Error> {
    let json = serde_json::to_string(deck)
        .expect("a prost message with pbjson serde always serializes to JSON");
    Ok(Deck::from_json(&json)?)
}

/// Reads card `index` of a ruling request.
fn ruling_card(index: usize, card: &pb::RulingCard) -> Result<Card, Error> {
    let id = CardId::parse(&card.id).map_err(|problem| Error::InvalidCard {
        field: format!("cards[{index}].id"),
        problem: problem.into(),
    })?;
    let mut ruled = Card::new(id);
    if let Some(copies) = card.copy_limit {
        let limit = CopyLimit::new(u64::from(copies)).ok_or_else(|| Error::InvalidCard {
            field: format!("cards[{index}].copyLimit"),
            problem: Problem::OutOfRange {
                min: u64::from(CopyLimit::MIN),
                max: u64::from(CopyLimit::MAX),
                found: i128::from(copies),
            },
        })?;
        ruled = ruled.with_copy_limit(limit);
    }
    Ok(ruled)
}

fn report_to_proto(report: &Report) -> pb::CheckDeckAgainstFormatResponse {
    pb::CheckDeckAgainstFormatResponse {
        valid: report.is_valid(),
        taboo_list: report.taboo_list().map(taboo_list_to_proto),
        cards: report
            .cards()
            .iter()
            .map(|card| card_ruling_to_proto(&card.card, &card.ruling))
            .collect(),
        issues: report
            .issues()
            .iter()
            .map(|issue| pb::Issue {
                code: issue.code.as_str().to_owned(),
                card: issue.card.as_ref().map(|card| card.as_str().to_owned()),
                message: issue.message.clone(),
            })
            .collect(),
    }
}

fn card_ruling_to_proto(card: &CardId, ruling: &CardRuling) -> pb::CardRuling {
    pb::CardRuling {
        card: card.as_str().to_owned(),
        banned_by: ruling.banned_by.as_ref().map(authority_to_proto),
        copy_limit: ruling.copy_limit.map(|limit| u32::from(limit.get())),
        restricted_by: ruling.restricted_by.as_ref().map(authority_to_proto),
    }
}

fn authority_to_proto(authority: &Authority) -> pb::Authority {
    let kind = match authority {
        Authority::Format { code } => pb::authority::Kind::Format(pb::FormatRef {
            code: code.as_str().to_owned(),
        }),
        Authority::TabooList {
            code,
            effective_from,
        } => pb::authority::Kind::TabooList(pb::TabooListRef {
            code: code.as_str().to_owned(),
            effective_from: effective_from.to_string(),
        }),
    };
    pb::Authority { kind: Some(kind) }
}

fn taboo_list_to_proto(list: &TabooListRef) -> pb::TabooListRef {
    pb::TabooListRef {
        code: list.code.as_str().to_owned(),
        effective_from: list.effective_from.to_string(),
    }
}
