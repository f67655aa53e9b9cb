//! The accounts service's integration tests, in one binary: the domain's rules as tables, the
//! store on PostgreSQL and SQLite, and the service over real gRPC behind a real auth layer.

mod domain;
mod grpc;
mod store;
mod support;
