//! The tournaments crate's integration tests, one binary: the engine through its public API
//! (brackets, round robins, free-for-all, Swiss properties) and the service over both
//! databases (the log, concurrency, restarts).

mod elimination;
mod free_for_all;
mod round_robin;
mod service;
mod swiss_properties;
