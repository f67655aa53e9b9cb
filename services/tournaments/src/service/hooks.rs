//! The webhooks of a tournament as the service keeps them: organizers add, list and remove
//! hooks and read and replay each hook's deliveries; every change that makes an event a hook
//! asked for records a delivery and queues it (`crate::delivery` sends it).

use std::time::SystemTime;

use kit::auth::Caller;
use kit::timestamp::to_millis;
use serde_json::json;

use super::{Published, Tournaments, organizer, organizer_reading, random_id};
use crate::error::Error;
use crate::jobs::enqueue_delivery;
use crate::run::Run;
use crate::run::fact::Webhook;
use crate::store::{Delivery, Submission};
use crate::webhooks::{self, HookError};

/// The most deliveries a hook's log shows.
pub const DELIVERY_LOG: u32 = 100;

/// The longest delivery id worth looking up, in bytes: a hook's id and the source of the event
/// (`wh_….t_….42`) are far shorter.
const MAX_DELIVERY_ID_BYTES: usize = 256;

impl Tournaments {
    /// Organizers: registers a webhook for `events` (none: all) at `url`. Returns the hook and
    /// its secret, which is shown only now.
    pub async fn add_webhook(
        &self,
        caller: &Caller,
        id: &str,
        url: &str,
        events: &[String],
    ) -> Result<(Webhook, String), Error> {
        let key = self.webhooks.key.clone().ok_or(Error::WebhooksOff)?;
        let url = webhooks::check_url(url, self.webhooks.allow_private).map_err(|err| {
            Error::BadRequest {
                field: "url",
                problem: err.to_string(),
            }
        })?;
        let events =
            webhooks::check_events(events).map_err(|err: HookError| Error::BadRequest {
                field: "events",
                problem: err.to_string(),
            })?;
        let hook = Webhook {
            id: random_id("wh"),
            url: url.to_string(),
            events,
            create_time_ms: to_millis(SystemTime::now()),
        };
        self.organize(caller, id, |run| run.add_webhook(&hook))
            .await?;
        let secret = key.secret(&hook.id);
        Ok((hook, secret))
    }

    /// Organizers: the tournament's webhooks.
    pub async fn webhooks(&self, caller: &Caller, id: &str) -> Result<Vec<Webhook>, Error> {
        let run = self.get(caller, id).await?;
        organizer_reading(caller, &run)?;
        Ok(run.webhooks.clone())
    }

    /// Organizers: removes a webhook (its pending deliveries are not sent).
    pub async fn remove_webhook(&self, caller: &Caller, id: &str, hook: &str) -> Result<(), Error> {
        self.organize(caller, id, |run| run.remove_webhook(hook))
            .await?;
        Ok(())
    }

    /// Organizers: a hook's latest deliveries, the newest first.
    pub async fn deliveries(
        &self,
        caller: &Caller,
        id: &str,
        hook: &str,
    ) -> Result<Vec<Delivery>, Error> {
        let run = self.get(caller, id).await?;
        organizer_reading(caller, &run)?;
        known_hook(&run, hook)?;
        self.store.deliveries(id, hook, DELIVERY_LOG).await
    }

    /// Organizers: sends a delivery again (after the receiver was fixed, say) as a new job.
    pub async fn redeliver(
        &self,
        caller: &Caller,
        id: &str,
        hook: &str,
        delivery: &str,
    ) -> Result<Delivery, Error> {
        let run = self.get(caller, id).await?;
        organizer(caller, &run)?;
        known_hook(&run, hook)?;
        let unknown = || Error::UnknownDelivery(delivery.to_owned());
        // A delivery's id is its hook's and a suffix: any other cannot be this hook's, and one
        // holding a NUL or far too long is not looked up.
        if !delivery.starts_with(&format!("{hook}."))
            || !kit::text::is_possible_key(delivery, MAX_DELIVERY_ID_BYTES)
        {
            return Err(unknown());
        }
        let found = self
            .store
            .delivery(delivery)
            .await?
            .filter(|found| found.tournament == id && found.hook == hook)
            .ok_or_else(unknown)?;
        let now = SystemTime::now();
        if !self.store.reopen_delivery(&found.id, now).await? {
            // Pending already: its job is on the way.
            return Ok(found);
        }
        if let Some(queue) = &self.queue {
            let job = format!("{}.again.{}", found.id, to_millis(now));
            enqueue_delivery(queue, &found.id, &job).await;
        }
        Ok(Delivery {
            state: "pending".to_owned(),
            update_time_ms: to_millis(now),
            ..found
        })
    }

    /// Records and queues a delivery of every event of a fact just appended that a hook asked
    /// for. A failure is logged: the fact stands either way.
    pub(super) async fn notify(&self, run: &Run, events: &[Published]) {
        for published in events {
            if let Some(event) = webhooks::event_of(published.kind) {
                let source = format!("{}.{event}", published.seq);
                self.tell(run, event, &source, &published.data).await;
            }
        }
    }

    /// Records and queues `submission.checked` for every hook that asked for it: what the
    /// worker does once a verdict is written (again on a job run twice: the delivery's id
    /// makes it one).
    pub async fn submission_checked(&self, run: &Run, submission: &Submission) {
        let data = json!({
            "registration": submission.registration,
            "submission": {
                "id": submission.id,
                "state": submission.state,
                "issues": submission.issues,
                "failure": submission.failure,
            },
        });
        self.tell(run, "submission.checked", &submission.id, &data)
            .await;
    }

    /// Records and queues `event` for every hook of `run` that asked for it, as delivery
    /// `<hook>.<source>` (`source` names the event, so making it again records nothing new).
    async fn tell(&self, run: &Run, event: &str, source: &str, data: &serde_json::Value) {
        let now = SystemTime::now();
        for hook in run
            .webhooks
            .iter()
            .filter(|hook| hook.events.iter().any(|e| e == event))
        {
            self.record_delivery(run, hook, format!("{}.{source}", hook.id), event, data, now)
                .await;
        }
    }

    async fn record_delivery(
        &self,
        run: &Run,
        hook: &Webhook,
        id: String,
        event: &str,
        data: &serde_json::Value,
        now: SystemTime,
    ) {
        let delivery = Delivery {
            body: webhooks::body(&id, event, &run.id, now, data),
            id,
            tournament: run.id.clone(),
            hook: hook.id.clone(),
            event: event.to_owned(),
            state: "pending".to_owned(),
            attempts: 0,
            last_status: None,
            last_error: None,
            create_time_ms: to_millis(now),
            update_time_ms: to_millis(now),
        };
        match self.store.insert_delivery(&delivery).await {
            Ok(true) => {
                if let Some(queue) = &self.queue {
                    enqueue_delivery(queue, &delivery.id, &delivery.id).await;
                }
            }
            Ok(false) => {}
            Err(err) => {
                tracing::warn!(delivery = %delivery.id, error = %err, "a webhook delivery was not recorded");
            }
        }
    }
}

fn known_hook(run: &Run, hook: &str) -> Result<(), Error> {
    if run.webhooks.iter().any(|known| known.id == hook) {
        Ok(())
    } else {
        Err(crate::run::RunError::UnknownWebhook(hook.to_owned()).into())
    }
}
