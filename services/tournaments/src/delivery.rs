//! Sending one webhook delivery: the job the submission worker runs for the `webhooks` queue.
//!
//! The host is resolved and every address checked against the operator's rule
//! (`webhooks::check_address`) before anything is sent, and the request goes to the checked
//! address only (no second lookup a name could answer differently, no redirects). A 2xx
//! answer delivers it; anything else is an attempt recorded in the hook's log and retried
//! with the queue's backoff, until the last attempt marks it `failed` and dead-letters the
//! job. A refused address, a removed hook or webhooks turned off end it `failed` at once.

use std::net::SocketAddr;
use std::time::{Duration, SystemTime};

use kit::auth::Caller;
use kit::queue::{Job, QueueSettings};

use crate::jobs::DeliveryPayload;
use crate::service::Tournaments;
use crate::store::Attempt;
use crate::webhooks::{self, WebhookSettings};

/// How long a receiver has to answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Why a delivery job did not finish: retried with backoff, then dead-lettered.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DeliveryError {
    #[error("unreadable job: {0}")]
    Payload(String),
    #[error(transparent)]
    Service(#[from] crate::Error),
    #[error("{0}")]
    NotDelivered(String),
}

/// What one send came to.
enum Sent {
    /// The receiver answered with this status.
    Answered(u16),
    /// The address is not allowed: never retried.
    Refused(String),
    /// No answer (cannot resolve, connect, or in time).
    NoAnswer(String),
}

/// Runs delivery job `job`.
pub(crate) async fn deliver(
    tournaments: &Tournaments,
    settings: &WebhookSettings,
    queue: &QueueSettings,
    job: Job,
) -> Result<(), DeliveryError> {
    let payload: DeliveryPayload = serde_json::from_slice(&job.payload)
        .map_err(|err| DeliveryError::Payload(err.to_string()))?;
    let store = tournaments.store();
    let Some(delivery) = store.delivery(&payload.delivery).await? else {
        return Ok(());
    };
    if delivery.state != "pending" {
        return Ok(());
    }
    let run = tournaments
        .get(&Caller::Anonymous, &delivery.tournament)
        .await?;
    let give_up = |error: String| Attempt::Failed {
        status: None,
        error,
        last: true,
    };
    let hook = run.webhooks.iter().find(|hook| hook.id == delivery.hook);
    let (Some(hook), Some(key)) = (hook, &settings.key) else {
        let why = if settings.key.is_none() {
            crate::Error::WebhooksOff.to_string()
        } else {
            "the webhook was removed".to_owned()
        };
        store
            .record_attempt(&delivery.id, &give_up(why), SystemTime::now())
            .await?;
        return Ok(());
    };
    let secret = key.secret(&hook.id);
    let sent = send(&hook.url, &secret, &delivery, settings.allow_private).await;
    let last = queue.is_last_attempt(job.attempt);
    let (attempt, outcome) = match sent {
        Sent::Answered(status) if (200..300).contains(&status) => {
            (Attempt::Delivered(status), Ok(()))
        }
        Sent::Refused(why) => (give_up(why), Ok(())),
        Sent::Answered(status) => {
            let error = format!("the receiver answered {status}");
            (
                Attempt::Failed {
                    status: Some(status),
                    error: error.clone(),
                    last,
                },
                Err(DeliveryError::NotDelivered(error)),
            )
        }
        Sent::NoAnswer(error) => (
            Attempt::Failed {
                status: None,
                error: error.clone(),
                last,
            },
            Err(DeliveryError::NotDelivered(error)),
        ),
    };
    store
        .record_attempt(&delivery.id, &attempt, SystemTime::now())
        .await?;
    tracing::info!(delivery = %delivery.id, event = %delivery.event, ?attempt, "webhook delivery attempted");
    outcome
}

/// Posts the delivery's body to `url`, signed, at an address the rule allows.
async fn send(
    url: &str,
    secret: &str,
    delivery: &crate::store::Delivery,
    allow_private: bool,
) -> Sent {
    let Ok(url) = reqwest::Url::parse(url) else {
        return Sent::Refused("the URL does not read".to_owned());
    };
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return Sent::Refused("the URL has no host".to_owned());
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let addresses: Vec<SocketAddr> = match tokio::net::lookup_host((host.as_str(), port)).await {
        Ok(found) => found.collect(),
        Err(err) => return Sent::NoAnswer(format!("cannot resolve `{host}`: {err}")),
    };
    if addresses.is_empty() {
        return Sent::NoAnswer(format!("`{host}` has no address"));
    }
    for address in &addresses {
        if let Err(refused) = webhooks::check_address(address.ip(), allow_private) {
            return Sent::Refused(refused.to_string());
        }
    }
    let client = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .user_agent("Turnier-Webhooks/1")
        .resolve_to_addrs(&host, &addresses)
        .build()
    {
        Ok(client) => client,
        Err(err) => return Sent::NoAnswer(format!("no HTTP client: {err}")),
    };
    let now = kit::timestamp::to_millis(SystemTime::now()) / 1000;
    let signature = webhooks::signature(secret, now, delivery.body.as_bytes());
    match client
        .post(url)
        .header("content-type", "application/json")
        .header("x-turnier-event", &delivery.event)
        .header("x-turnier-delivery", &delivery.id)
        .header(webhooks::SIGNATURE_HEADER, signature)
        .body(delivery.body.clone())
        .send()
        .await
    {
        Ok(response) => Sent::Answered(response.status().as_u16()),
        Err(err) => Sent::NoAnswer(format!("no answer: {err}")),
    }
}
