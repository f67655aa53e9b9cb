//! The check of a submitted lineup, as the submission worker runs it
//! (`reference-scripting-sandbox.md`): every deck read by the deck builder's import, the
//! number of decks, the tournament's banned cards before any script runs (`Deck 2: Deny is
//! banned in this tournament.`), then the pinned card rule on every card, the deck rule on every
//! deck and the deck-set rule on the lineup in the sandbox, issues prefixed as the reference
//! says (`Card …:` as the card rule's come, `Deck 2: …`, `Lineup: …`), all within
//! [`CHECK_LIMIT`].

use std::collections::HashSet;
use std::time::Duration;

use kit::clients::{DecksClient, ScriptsClient, ServiceError};
use proto::decks::v1 as decks_pb;
use proto::game::Game;
use proto::scripts::v1 as scripts_pb;
use tonic::Code;

use crate::run::fact::{DeckSettings, PinnedRule};

/// One submission check over every scope.
pub const CHECK_LIMIT: Duration = Duration::from_secs(15);

/// How long one sandbox call may keep asking again while the scripts service answers `busy`
/// before the job is handed back to the queue's backoff. The worker is one caller of the
/// sandbox with a caller's share, running several checks at once: a `busy` under load means
/// "in a moment", not "in a second or more", which is what the queue's backoff would wait.
const BUSY_PATIENCE: Duration = Duration::from_secs(5);

/// What a check decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `accepted`, `rejected` or `failed`.
    pub state: &'static str,
    /// Every issue, in the order found.
    pub issues: Vec<String>,
    /// Why it failed: which rule, and what happened.
    pub failure: Option<String>,
}

impl Verdict {
    fn failed(reason: String) -> Self {
        Verdict {
            state: "failed",
            issues: Vec::new(),
            failure: Some(reason),
        }
    }
}

/// A check that could not run for a reason a retry may cure (a service unavailable).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Transient(pub String);

/// Whether a service's error is worth a retry.
fn transient(cause: &ServiceError) -> bool {
    // `Unknown`: tonic's "transport error" when the peer went away mid-call (a crash).
    matches!(
        cause.code,
        Code::Unavailable
            | Code::Aborted
            | Code::Cancelled
            | Code::ResourceExhausted
            | Code::Unknown
    )
}

/// One imported deck of the lineup.
struct Deck {
    /// `Deck 1`, `Deck 2`, …
    label: String,
    piles: Vec<decks_pb::DeckPile>,
}

/// Checks a lineup of `game` against `settings`, within [`CHECK_LIMIT`].
pub async fn check(
    game: Game,
    settings: &DeckSettings,
    decks: &[String],
    importer: &DecksClient,
    scripts: &ScriptsClient,
) -> Result<Verdict, Transient> {
    // The rule running when time runs out is the one the player and the organizer are told.
    let running = std::sync::Mutex::new(None);
    match tokio::time::timeout(
        CHECK_LIMIT,
        check_unbounded(game, settings, decks, importer, scripts, &running),
    )
    .await
    {
        Ok(verdict) => verdict,
        Err(_) => {
            let rule = running
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
                .map_or_else(String::new, |rule| format!(" (running {rule})"));
            Ok(Verdict::failed(format!(
                "the check took longer than {} s{rule}",
                CHECK_LIMIT.as_secs()
            )))
        }
    }
}

/// Notes the rule (or rules) about to run.
fn running_now(running: &std::sync::Mutex<Option<String>>, rules: String) {
    *running
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(rules);
}

async fn check_unbounded(
    game: Game,
    settings: &DeckSettings,
    texts: &[String],
    importer: &DecksClient,
    scripts: &ScriptsClient,
    running: &std::sync::Mutex<Option<String>>,
) -> Result<Verdict, Transient> {
    let mut issues = Vec::new();
    let wanted = usize::try_from(settings.decks_to_bring).unwrap_or(usize::MAX);
    if texts.len() != wanted {
        issues.push(format!(
            "Lineup: this tournament asks for {wanted} deck{}, not {}.",
            if wanted == 1 { "" } else { "s" },
            texts.len()
        ));
    }
    // Every deck read as the deck builder reads a pasted code or list.
    let mut decks = Vec::with_capacity(texts.len());
    for (at, text) in texts.iter().enumerate() {
        let label = format!("Deck {}", at + 1);
        match importer
            .import_deck(decks_pb::ImportDeckRequest {
                game: proto::game::to_wire(game),
                text: text.clone(),
                layout: decks_pb::DeckLayout::Piles.into(),
            })
            .await
        {
            Ok(imported) => decks.push(Deck {
                label,
                piles: imported.piles,
            }),
            Err(cause) if transient(&cause) => return Err(Transient(cause.to_string())),
            Err(cause) => issues.push(format!("{label}: {}", cause.message)),
        }
    }
    // Banned cards first: a lineup with one is rejected before any script runs.
    let banned: HashSet<&str> = settings
        .banned_cards
        .iter()
        .chain(&settings.card.direct_bans)
        .map(String::as_str)
        .collect();
    let mut banned_found = false;
    for deck in &decks {
        let mut named = HashSet::new();
        for card in deck.piles.iter().flat_map(|pile| &pile.cards) {
            // A ref bans that printing; a card id, every printing of the card.
            let hit =
                banned.contains(card.r#ref.as_str()) || banned.contains(card.card_id.as_str());
            if hit && named.insert(card.r#ref.clone()) {
                banned_found = true;
                let name = if card.name.is_empty() {
                    &card.r#ref
                } else {
                    &card.name
                };
                issues.push(format!(
                    "{}: {name} is banned in this tournament.",
                    deck.label
                ));
            }
        }
    }
    if banned_found || decks.len() != texts.len() {
        return Ok(Verdict {
            state: "rejected",
            issues,
            failure: None,
        });
    }
    let mut valid = issues.is_empty();
    // The card rule on every card and the deck rule on every deck, deck by deck.
    let mut card_lines = HashSet::new();
    for deck in &decks {
        running_now(
            running,
            format!(
                "the card rule `{}` and the deck rule `{}` on {}",
                settings.card.name, settings.deck.name, deck.label
            ),
        );
        let answer = validate(
            scripts,
            game,
            deck.piles.iter().map(pile).collect(),
            Some(&settings.card),
            RuleOf::Deck(&settings.deck),
        )
        .await?;
        let answer = match answer {
            Ok(answer) => answer,
            Err(failure) => return Ok(Verdict::failed(failure)),
        };
        valid &= answer.valid.unwrap_or(false);
        for issue in answer.issues {
            if issue.rule == "card" {
                if card_lines.insert(issue.message.clone()) {
                    issues.push(issue.message);
                }
            } else {
                issues.push(format!("{}: {}", deck.label, issue.message));
            }
        }
    }
    // The deck-set rule on the lineup: each deck one pile.
    let lineup = decks
        .iter()
        .map(|deck| scripts_pb::ValidatePile {
            name: deck.label.clone(),
            role: scripts_pb::PileRole::Main.into(),
            cards: deck
                .piles
                .iter()
                .filter(|pile| pile.name != "sideboard")
                .flat_map(|pile| &pile.cards)
                .map(|card| scripts_pb::PileEntry {
                    r#ref: card.r#ref.clone(),
                    count: card.count,
                })
                .collect(),
            zone_rule: None,
        })
        .collect();
    running_now(
        running,
        format!("the deck set rule `{}`", settings.deckset.name),
    );
    let answer = match validate(
        scripts,
        game,
        lineup,
        None,
        RuleOf::Deckset(&settings.deckset),
    )
    .await?
    {
        Ok(answer) => answer,
        Err(failure) => return Ok(Verdict::failed(failure)),
    };
    valid &= answer.valid.unwrap_or(false);
    issues.extend(
        answer
            .issues
            .into_iter()
            .map(|issue| format!("Lineup: {}", issue.message)),
    );
    Ok(Verdict {
        state: if valid { "accepted" } else { "rejected" },
        issues,
        failure: None,
    })
}

/// The whole-deck rule of a check: a deck's, or the lineup's.
enum RuleOf<'a> {
    Deck(&'a PinnedRule),
    Deckset(&'a PinnedRule),
}

fn script(rule: &PinnedRule) -> scripts_pb::Script {
    scripts_pb::Script {
        script: Some(scripts_pb::script::Script::Source(rule.source.clone())),
    }
}

fn pile(pile: &decks_pb::DeckPile) -> scripts_pb::ValidatePile {
    scripts_pb::ValidatePile {
        name: pile.name.clone(),
        role: if pile.name == "sideboard" {
            scripts_pb::PileRole::Sideboard
        } else {
            scripts_pb::PileRole::Main
        }
        .into(),
        cards: pile
            .cards
            .iter()
            .map(|card| scripts_pb::PileEntry {
                r#ref: card.r#ref.clone(),
                count: card.count,
            })
            .collect(),
        zone_rule: None,
    }
}

/// Calls `call` again after a short pause (10 ms, growing to 200 ms, with jitter) while it
/// answers `busy` (`RESOURCE_EXHAUSTED`), for up to [`BUSY_PATIENCE`]; then answers what it
/// last answered.
async fn busy_again<T, F, Fut>(mut call: F) -> Result<T, ServiceError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, ServiceError>>,
{
    let started = tokio::time::Instant::now();
    let mut pause = Duration::from_millis(10);
    loop {
        let wait =
            pause + Duration::from_millis(rand::random_range(0..=pause.as_millis() as u64 / 2));
        match call().await {
            Err(cause)
                if cause.code == Code::ResourceExhausted
                    && started.elapsed() + wait < BUSY_PATIENCE =>
            {
                tokio::time::sleep(wait).await;
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            answer => return answer,
        }
    }
}

/// Runs one `ValidateDeck`; the inner `Err` is a rule that errored or ran out of time (the
/// submission fails, naming the rule), the outer one a service a retry may reach.
async fn validate(
    scripts: &ScriptsClient,
    game: Game,
    piles: Vec<scripts_pb::ValidatePile>,
    card: Option<&PinnedRule>,
    rule: RuleOf<'_>,
) -> Result<Result<scripts_pb::ValidateDeckResponse, String>, Transient> {
    let (deck_rule, deckset_rule, named) = match rule {
        RuleOf::Deck(rule) => (Some(script(rule)), None, rule),
        RuleOf::Deckset(rule) => (None, Some(script(rule)), rule),
    };
    let request = scripts_pb::ValidateDeckRequest {
        game: proto::game::to_wire(game),
        piles,
        card_rule: card.map(script),
        deck_rule,
        deckset_rule,
        context_json: None,
    };
    match busy_again(|| scripts.validate_deck(request.clone())).await {
        Ok(answer) => Ok(Ok(answer)),
        Err(cause) if transient(&cause) => Err(Transient(cause.to_string())),
        Err(cause) => {
            let which = card
                .map(|card| format!("`{}` or `{}`", card.name, named.name))
                .unwrap_or_else(|| format!("`{}`", named.name));
            Ok(Err(format!("the rule {which} failed: {}", cause.message)))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn busy() -> ServiceError {
        ServiceError::local(Code::ResourceExhausted, "busy", "the sandbox is busy")
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_sandbox_is_asked_again_until_it_answers() {
        let calls = AtomicU32::new(0);
        let answer = busy_again(|| async {
            match calls.fetch_add(1, Ordering::SeqCst) {
                0 | 1 => Err(busy()),
                _ => Ok("checked"),
            }
        })
        .await;
        assert_eq!(answer.expect("answered"), "checked");
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn a_sandbox_busy_for_longer_than_the_patience_is_left_to_the_queue() {
        let started = tokio::time::Instant::now();
        let calls = AtomicU32::new(0);
        let answer: Result<(), _> = busy_again(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(busy())
        })
        .await;
        assert_eq!(
            answer.expect_err("still busy").code,
            Code::ResourceExhausted
        );
        assert!(
            started.elapsed() <= BUSY_PATIENCE,
            "{:?}",
            started.elapsed()
        );
        assert!(calls.load(Ordering::SeqCst) > 10, "asked again, not once");
    }

    #[tokio::test(start_paused = true)]
    async fn any_other_error_is_answered_at_once() {
        let calls = AtomicU32::new(0);
        let answer: Result<(), _> = busy_again(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(ServiceError::local(Code::InvalidArgument, "bad", "no"))
        })
        .await;
        assert_eq!(answer.expect_err("refused").code, Code::InvalidArgument);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
