//! The calculators dialog every deck page opens (`?calc=<id>`): the picker (Defaults, Your
//! calculators: the viewer's enabled ones), and the picked calculator run over the deck through
//! `RunCalculator`, its dashboard drawn by [`super::charts`]. It is a `<dialog open>` in the page,
//! so it works without JavaScript (the picker is a GET form; with the script it submits on change)
//! and closes with a plain link. A calculator that fails says the guide's sentence, with the
//! script's own message under it.

use std::collections::BTreeMap;

use maud::{Markup, html};
use proto::calculators::v1 as pb;
use proto::game::Game;

use crate::auth::Calls;

/// The deck the dialog runs over, how to get back to the page without it, and how the picker's
/// form keeps the page's other parameters.
pub struct DeckView {
    pub game: Game,
    /// Card ref → copies: every pile but the sideboard, counted together.
    pub pile: BTreeMap<String, u32>,
    /// The page's address with the dialog closed.
    pub close: String,
    /// Where the picker's form goes, and the fields it carries besides `calc`.
    pub action: String,
    pub hidden: Vec<(String, String)>,
}

/// The "Calculators" button: opens the dialog on the game's first calculator.
pub fn button(open: &str) -> Markup {
    html! {
        a class="button secondary" id="open-calculators" href={ (open) "#calculators" } {
            svg class="icon" viewBox="0 0 16 16" aria-hidden="true" width="16" height="16" {
                rect x="2" y="1" width="12" height="14" rx="2" fill="none" stroke="currentColor" stroke-width="1.5" {}
                rect x="4.5" y="3.5" width="7" height="3" fill="currentColor" {}
                circle cx="5.5" cy="10" r="1" fill="currentColor" {}
                circle cx="10.5" cy="10" r="1" fill="currentColor" {}
                circle cx="5.5" cy="13" r="1" fill="currentColor" {}
                circle cx="10.5" cy="13" r="1" fill="currentColor" {}
            }
            " Calculators"
        }
    }
}

/// The dialog with `picked` (or the first calculator offered) run over the deck.
pub async fn dialog(calls: &Calls, deck: &DeckView, picked: &str) -> Markup {
    let game = proto::game::to_wire(deck.game);
    let offered = match calls.calculators() {
        Ok(client) => client
            .list_calculators(pb::ListCalculatorsRequest { game })
            .await
            .map(|answer| answer.calculators)
            .map_err(|error| error.message),
        Err(error) => Err(error.message().to_owned()),
    };
    let offered: Vec<pb::Calculator> = match offered {
        Ok(all) => all
            .into_iter()
            .filter(|calculator| calculator.enabled || calculator.id == picked)
            .collect(),
        Err(message) => return frame(deck, html! { p class="error" role="alert" { (message) } }),
    };
    let chosen = offered
        .iter()
        .find(|calculator| calculator.id == picked)
        .or_else(|| offered.first());
    let Some(chosen) = chosen else {
        return frame(
            deck,
            html! { p class="help" { "Every calculator is switched off: switch one on in Settings → Calculators." } },
        );
    };
    let pile = serde_json::to_string(&deck.pile).unwrap_or_else(|_| "{}".to_owned());
    let run = calls
        .calculators()
        .map_err(|error| error.message().to_owned())
        .map(|client| {
            client.run_calculator(pb::RunCalculatorRequest {
                game,
                id: chosen.id.clone(),
                deck: Some(pb::run_calculator_request::Deck::PileJson(pile)),
                source: None,
            })
        });
    let outcome = match run {
        Ok(call) => call.await.map_err(|error| error.message),
        Err(message) => Err(message),
    };
    let (defaults, own): (Vec<&pb::Calculator>, Vec<&pb::Calculator>) =
        offered.iter().partition(|calculator| calculator.built_in);
    frame(
        deck,
        html! {
            form method="get" action={ (deck.action) "#calculators" } class="search picker" {
                @for (name, value) in &deck.hidden { input type="hidden" name=(name) value=(value); }
                label for="calculator" { "Calculator" }
                select id="calculator" name="calc" data-autosubmit {
                    @for (group, members) in [("Defaults", &defaults), ("Your calculators", &own)] {
                        @if !members.is_empty() {
                            optgroup label=(group) {
                                @for calculator in members.iter() {
                                    option value=(calculator.id) selected[calculator.id == chosen.id] { (calculator.name) }
                                }
                            }
                        }
                    }
                }
                button type="submit" { "Show" }
            }
            @match outcome {
                Ok(answer) => {
                    @let widgets = answer.dashboard.map(|dashboard| dashboard.widgets).unwrap_or_default();
                    (super::charts::dashboard(&widgets))
                }
                Err(message) => {
                    div class="error" role="alert" id="calculator-failed" {
                        p { "This calculator could not run. Its script may have an error." }
                        p class="help" { (message) }
                    }
                }
            }
        },
    )
}

fn frame(deck: &DeckView, content: Markup) -> Markup {
    html! {
        dialog id="calculators" open aria-labelledby="calculators-heading" {
            div class="dialog-head" {
                h2 id="calculators-heading" { "Calculators" }
                a class="button secondary small" href=(deck.close) { "Close" }
            }
            (content)
        }
    }
}
