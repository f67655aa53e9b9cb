//! The gateway's tests, in one binary (one link, one start): routes and the error shape in
//! memory, readiness against real gRPC health servers, the HTTP metrics, and serving on a real
//! listener (shutdown, request-head limits), and the pages' defences (`web_security`).

mod common;
mod http_metrics;
mod readiness;
mod routes;
mod serve;
mod web_security;
