//! `ValidateDeck`: runs every rule of a whole-deck check in the sandbox, on one blocking
//! thread, once the request's scripts are resolved and its cards read from the catalog. What
//! each rule sees and how the answers read is `crate::domain::deck_check`'s.

use proto::scripts::v1::{RuleResult, ValidateDeckResponse};
use serde_json::{Map, Value};

use crate::domain::deck_check::{self, Answers, Pile};
use crate::domain::direct_bans::DirectBans;
use crate::error::Error;
use crate::runner::{RunFailure, Runner, ScriptRef, Verdict};

/// A card rule and its direct bans.
#[derive(Debug, Clone)]
pub struct CardRule {
    /// Its script.
    pub script: ScriptRef,
    /// The cards it bans on top of the script.
    pub direct_bans: DirectBans,
}

/// Everything a check runs, resolved.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The game's name, for the message of an unknown card.
    pub game: &'static str,
    /// The piles, in order.
    pub piles: Vec<Pile>,
    /// Each pile's zone rule, by position.
    pub zone_rules: Vec<Option<ScriptRef>>,
    /// The card rule.
    pub card_rule: Option<CardRule>,
    /// The whole-deck rule.
    pub deck_rule: Option<ScriptRef>,
    /// The deck set rule.
    pub deckset_rule: Option<ScriptRef>,
    /// Every counted ref, in order, with its card object (`None`: the catalog does not know
    /// it).
    pub cards: Vec<(String, Option<Value>)>,
    /// The context every rule gets.
    pub context: Option<Value>,
}

impl Plan {
    /// Runs every rule and assembles the answer. A rule that cannot run fails the whole check,
    /// naming the rule: a deck is never shown as legal because its rule did not run.
    pub fn run(self, runner: &Runner) -> Result<ValidateDeckResponse, Error> {
        let cards_by_id: Map<String, Value> = self
            .cards
            .iter()
            .filter_map(|(reference, card)| Some((reference.clone(), card.clone()?)))
            .collect();
        let cards_by_id = Value::Object(cards_by_id);

        let mut zones = Vec::with_capacity(self.piles.len());
        for (pile, rule) in self.piles.iter().zip(&self.zone_rules) {
            let result = match rule {
                Some(script) if pile.counts() => Some(
                    runner
                        .deck_rule(
                            script,
                            pile.deck(),
                            cards_by_id.clone(),
                            self.context.clone(),
                        )
                        .map_err(|failure| failed(format!("{}'s zone rule", pile.name), failure))?,
                ),
                _ => None,
            };
            zones.push(result);
        }

        let cards = self.card_results(runner)?;
        let unknown = self
            .cards
            .iter()
            .filter(|(_, card)| card.is_none())
            .map(|(reference, _)| reference.clone())
            .collect();

        let deck = self
            .deck_rule
            .as_ref()
            .map(|script| {
                runner
                    .deck_rule(
                        script,
                        deck_check::whole_deck(&self.piles),
                        cards_by_id.clone(),
                        self.context.clone(),
                    )
                    .map_err(|failure| failed("the whole-deck rule".to_owned(), failure))
            })
            .transpose()?;
        let deckset = self
            .deckset_rule
            .as_ref()
            .map(|script| {
                runner
                    .deckset_rule(
                        script,
                        deck_check::lineup(&self.piles),
                        cards_by_id.clone(),
                        self.context.clone(),
                    )
                    .map_err(|failure| failed("the deck set rule".to_owned(), failure))
            })
            .transpose()?;

        Ok(deck_check::report(
            &self.piles,
            Answers {
                zones,
                cards,
                unknown,
                deck,
                deckset,
            },
        ))
    }

    /// The card rule's verdict on every counted card (one pool run over the distinct cards),
    /// with each card's name; an unknown card fails whatever the rule.
    fn card_results(
        &self,
        runner: &Runner,
    ) -> Result<Vec<(String, String, Option<RuleResult>)>, Error> {
        let known: Vec<&Value> = self
            .cards
            .iter()
            .filter_map(|(_, card)| card.as_ref())
            .collect();
        let verdicts = match &self.card_rule {
            Some(rule) if !known.is_empty() => Some(
                runner
                    .card_pool(&rule.script, &known, self.context.clone())
                    .map_err(|failure| failed("the card rule".to_owned(), failure))?,
            ),
            _ => None,
        };
        let mut verdicts = verdicts.map(Vec::into_iter);
        let mut out = Vec::with_capacity(self.cards.len());
        for (reference, card) in &self.cards {
            let Some(card) = card else {
                out.push((
                    reference.clone(),
                    reference.clone(),
                    Some(deck_check::unknown_card(
                        &kit::status::quote(reference),
                        self.game,
                    )),
                ));
                continue;
            };
            let name = card
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or(reference)
                .to_owned();
            let result = match (verdicts.as_mut().and_then(Iterator::next), &self.card_rule) {
                (Some(Verdict::Result(result)), Some(rule)) => {
                    let banned = rule.direct_bans.bans(std::iter::once(reference.as_str()))
                        || rule.direct_bans.bans_card(card);
                    Some(DirectBans::apply(result, banned))
                }
                (Some(Verdict::Threw(message)), _) => {
                    return Err(failed(
                        format!("the card rule on {name}"),
                        RunFailure::ScriptError(message),
                    ));
                }
                _ => None,
            };
            out.push((reference.clone(), name, result));
        }
        Ok(out)
    }
}

fn failed(rule: String, failure: RunFailure) -> Error {
    Error::RuleFailed { rule, failure }
}
