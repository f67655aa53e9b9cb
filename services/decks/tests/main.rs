//! The decks service's tests, in one binary (one link, one start): the public deck-code
//! vectors, our codes against the reference libraries, the service over real gRPC, and the
//! saved-decks store on PostgreSQL and SQLite.

mod differential;
mod grpc;
mod store;
mod vectors;
