//! Registration of a run event (issue 19): players sign up while registration is open, up to
//! the cap, after which they wait in line (a **waitlist** that moves up when someone leaves);
//! an optional **check-in** before the start (only checked-in players are paired once the
//! event starts); drops (a dropped player keeps their standing and is never paired again),
//! and reinstating a player dropped by mistake before the next pairing.
//!
//! This is the rules of the roster as a value: the service keeps the log of what happened and
//! folds it through these transitions; no clock, no storage.

/// A registration's id in its tournament (`r1`, `r2`, …; the service assigns them in order).
pub type RegistrationId = String;

/// Where a registration stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistrationState {
    /// In the event.
    Registered,
    /// Waiting for a place (the event is full).
    Waitlisted,
    /// In the event and checked in.
    CheckedIn,
    /// Dropped: keeps their standing, never paired again.
    Dropped,
}

impl RegistrationState {
    /// Returns the state as the API writes it.
    pub fn name(self) -> &'static str {
        match self {
            RegistrationState::Registered => "registered",
            RegistrationState::Waitlisted => "waitlisted",
            RegistrationState::CheckedIn => "checked_in",
            RegistrationState::Dropped => "dropped",
        }
    }
}

/// One registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// Its id.
    pub id: RegistrationId,
    /// The name shown in pairings and standings.
    pub display_name: String,
    /// The player's account; `None` for a guest the organizer added by name.
    pub account: Option<String>,
    /// Where it stands.
    pub state: RegistrationState,
}

/// Why a change of the roster is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    /// Registration is closed (or the event started without late entry).
    #[error("registration is closed")]
    Closed,
    /// The account is registered already.
    #[error("you are registered already (registration `{0}`)")]
    AlreadyRegistered(RegistrationId),
    /// No such registration.
    #[error("no registration `{0}`")]
    Unknown(RegistrationId),
    /// Check-in is not part of this event, or not open.
    #[error("check-in is not open")]
    CheckInClosed,
    /// A waitlisted player cannot check in.
    #[error("registration `{0}` is on the waitlist: only players with a place check in")]
    NotPlaced(RegistrationId),
    /// The registration has dropped.
    #[error("registration `{0}` has dropped")]
    AlreadyDropped(RegistrationId),
    /// Only a dropped player is reinstated, and only before the next pairing.
    #[error("registration `{0}` cannot be reinstated now: {1}")]
    CannotReinstate(RegistrationId, &'static str),
}

/// The roster of an event: its registrations in sign-up order, the cap and the check-in switch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Roster {
    /// Every registration, in the order they signed up (the waitlist's order too).
    pub registrations: Vec<Registration>,
    /// The most players with a place; `None`: no cap.
    pub max_participants: Option<u32>,
    /// Whether players check in before the start.
    pub check_in: bool,
    /// Where each registration is in `registrations`, by id.
    index: std::collections::HashMap<RegistrationId, usize>,
}

impl Roster {
    /// Returns a roster with a cap and a check-in switch.
    pub fn new(max_participants: Option<u32>, check_in: bool) -> Self {
        Self {
            registrations: Vec::new(),
            max_participants,
            check_in,
            index: std::collections::HashMap::new(),
        }
    }

    /// Players with a place (registered or checked in, not dropped, not waitlisted).
    pub fn placed(&self) -> usize {
        self.registrations
            .iter()
            .filter(|r| {
                matches!(
                    r.state,
                    RegistrationState::Registered | RegistrationState::CheckedIn
                )
            })
            .count()
    }

    fn is_full(&self) -> bool {
        self.max_participants
            .is_some_and(|cap| self.placed() >= usize::try_from(cap).unwrap_or(usize::MAX))
    }

    fn find_mut(&mut self, id: &str) -> Result<&mut Registration, RosterError> {
        self.index
            .get(id)
            .and_then(|&at| self.registrations.get_mut(at))
            .ok_or_else(|| RosterError::Unknown(id.to_owned()))
    }

    /// Returns the registration `id`.
    pub fn get(&self, id: &str) -> Option<&Registration> {
        self.index
            .get(id)
            .and_then(|&at| self.registrations.get(at))
    }

    /// Signs up `account` (or a guest, `None`) as `display_name` with the id `id`: a place
    /// when there is one, else the waitlist. An account signs up once (a dropped one may not
    /// come back this way: the organizer reinstates).
    pub fn register(
        &mut self,
        id: RegistrationId,
        account: Option<String>,
        display_name: String,
    ) -> Result<&Registration, RosterError> {
        if let Some(account) = &account
            && let Some(existing) = self
                .registrations
                .iter()
                .find(|r| r.account.as_ref() == Some(account))
        {
            return Err(RosterError::AlreadyRegistered(existing.id.clone()));
        }
        let state = if self.is_full() {
            RegistrationState::Waitlisted
        } else {
            RegistrationState::Registered
        };
        self.index.insert(id.clone(), self.registrations.len());
        self.registrations.push(Registration {
            id,
            display_name,
            account,
            state,
        });
        Ok(self.registrations.last().expect("just pushed"))
    }

    /// Takes a registration out before the start (unregister): it leaves the roster, and the
    /// first on the waitlist moves up into a freed place. Returns who moved up.
    pub fn unregister(&mut self, id: &str) -> Result<Option<RegistrationId>, RosterError> {
        let index = *self
            .index
            .get(id)
            .ok_or_else(|| RosterError::Unknown(id.to_owned()))?;
        let left = self.registrations.remove(index);
        self.index = self
            .registrations
            .iter()
            .enumerate()
            .map(|(at, r)| (r.id.clone(), at))
            .collect();
        if left.state == RegistrationState::Waitlisted {
            return Ok(None);
        }
        Ok(self.move_up())
    }

    /// Moves the first waitlisted registration into a place, if there is one free.
    fn move_up(&mut self) -> Option<RegistrationId> {
        if self.is_full() {
            return None;
        }
        let next = self
            .registrations
            .iter_mut()
            .find(|r| r.state == RegistrationState::Waitlisted)?;
        next.state = RegistrationState::Registered;
        Some(next.id.clone())
    }

    /// Checks a placed player in.
    pub fn check_in(&mut self, id: &str) -> Result<(), RosterError> {
        if !self.check_in {
            return Err(RosterError::CheckInClosed);
        }
        let registration = self.find_mut(id)?;
        match registration.state {
            RegistrationState::Registered | RegistrationState::CheckedIn => {
                registration.state = RegistrationState::CheckedIn;
                Ok(())
            }
            RegistrationState::Waitlisted => Err(RosterError::NotPlaced(id.to_owned())),
            RegistrationState::Dropped => Err(RosterError::AlreadyDropped(id.to_owned())),
        }
    }

    /// Drops a player: they keep their standing and are never paired again. A waitlisted
    /// registration that drops simply leaves the line; a placed one frees its place for the
    /// waitlist (before the start).
    pub fn drop_player(
        &mut self,
        id: &str,
        started: bool,
    ) -> Result<Option<RegistrationId>, RosterError> {
        let registration = self.find_mut(id)?;
        let was = registration.state;
        if was == RegistrationState::Dropped {
            return Err(RosterError::AlreadyDropped(id.to_owned()));
        }
        registration.state = RegistrationState::Dropped;
        if was == RegistrationState::Waitlisted || started {
            return Ok(None);
        }
        Ok(self.move_up())
    }

    /// Reinstates a player dropped by mistake, before the next pairing (`paired_since_drop`
    /// says whether a round was paired after the drop).
    pub fn reinstate(&mut self, id: &str, paired_since_drop: bool) -> Result<(), RosterError> {
        let check_in = self.check_in;
        let registration = self.find_mut(id)?;
        if registration.state != RegistrationState::Dropped {
            return Err(RosterError::CannotReinstate(
                id.to_owned(),
                "they have not dropped",
            ));
        }
        if paired_since_drop {
            return Err(RosterError::CannotReinstate(
                id.to_owned(),
                "a round was paired since the drop",
            ));
        }
        registration.state = if check_in {
            RegistrationState::CheckedIn
        } else {
            RegistrationState::Registered
        };
        Ok(())
    }

    /// The players the next round pairs, in sign-up order: placed and not dropped, and, where
    /// the event has check-in, checked in.
    pub fn pairable(&self) -> Vec<&Registration> {
        self.registrations
            .iter()
            .filter(|r| match r.state {
                RegistrationState::CheckedIn => true,
                RegistrationState::Registered => !self.check_in,
                RegistrationState::Waitlisted | RegistrationState::Dropped => false,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster_of(cap: Option<u32>, check_in: bool, players: &[&str]) -> Roster {
        let mut roster = Roster::new(cap, check_in);
        for (index, name) in players.iter().enumerate() {
            roster
                .register(
                    format!("r{}", index + 1),
                    Some(format!("acc_{name}")),
                    (*name).to_owned(),
                )
                .expect("registered");
        }
        roster
    }

    fn states(roster: &Roster) -> Vec<(&str, RegistrationState)> {
        roster
            .registrations
            .iter()
            .map(|r| (r.id.as_str(), r.state))
            .collect()
    }

    #[test]
    fn past_the_cap_players_wait_and_move_up_in_order_when_someone_leaves() {
        use RegistrationState::*;
        let mut roster = roster_of(Some(2), false, &["ana", "bob", "cy", "dee"]);
        assert_eq!(
            states(&roster),
            [
                ("r1", Registered),
                ("r2", Registered),
                ("r3", Waitlisted),
                ("r4", Waitlisted)
            ]
        );
        assert_eq!(roster.unregister("r1"), Ok(Some("r3".to_owned())));
        assert_eq!(roster.drop_player("r2", false), Ok(Some("r4".to_owned())));
        assert_eq!(
            states(&roster),
            [("r2", Dropped), ("r3", Registered), ("r4", Registered)]
        );
        // Once started, a drop frees no place.
        assert_eq!(roster.drop_player("r3", true), Ok(None));
    }

    #[test]
    fn an_account_registers_once() {
        let mut roster = roster_of(None, false, &["ana"]);
        assert_eq!(
            roster.register(
                "r2".to_owned(),
                Some("acc_ana".to_owned()),
                "Ana".to_owned()
            ),
            Err(RosterError::AlreadyRegistered("r1".to_owned()))
        );
        // Guests, added by name, are never the same account.
        assert!(
            roster
                .register("r2".to_owned(), None, "Walk-in".to_owned())
                .is_ok()
        );
        assert!(
            roster
                .register("r3".to_owned(), None, "Walk-in".to_owned())
                .is_ok()
        );
    }

    #[test]
    fn with_check_in_only_checked_in_players_are_paired() {
        let mut roster = roster_of(Some(2), true, &["ana", "bob", "cy"]);
        roster.check_in("r1").expect("checked in");
        assert_eq!(
            roster.check_in("r3"),
            Err(RosterError::NotPlaced("r3".to_owned()))
        );
        let pairable: Vec<&str> = roster.pairable().iter().map(|r| r.id.as_str()).collect();
        assert_eq!(pairable, ["r1"]);
        let mut open = roster_of(None, false, &["ana", "bob"]);
        assert_eq!(open.check_in("r1"), Err(RosterError::CheckInClosed));
        assert_eq!(
            open.pairable().len(),
            2,
            "without check-in every placed player"
        );
    }

    #[test]
    fn a_drop_is_reinstated_only_before_the_next_pairing() {
        let mut roster = roster_of(None, false, &["ana", "bob"]);
        roster.drop_player("r1", true).expect("dropped");
        assert_eq!(
            roster.drop_player("r1", true),
            Err(RosterError::AlreadyDropped("r1".to_owned()))
        );
        assert!(roster.pairable().iter().all(|r| r.id != "r1"));
        assert!(matches!(
            roster.reinstate("r1", true),
            Err(RosterError::CannotReinstate(..))
        ));
        roster.reinstate("r1", false).expect("reinstated");
        assert_eq!(
            roster.get("r1").map(|r| r.state),
            Some(RegistrationState::Registered)
        );
        assert!(matches!(
            roster.reinstate("r2", false),
            Err(RosterError::CannotReinstate(..))
        ));
        assert_eq!(roster.check_in("r9"), Err(RosterError::CheckInClosed));
    }
}
