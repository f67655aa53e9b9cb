//! The search engine over each game's real catalog: the language's worked examples, its
//! reference, its properties, and the search service reading a real catalog service. These live
//! with the platform's tests because they need the catalog's importer and service, and the
//! search crate depends on no other service, not even for its tests.

mod examples;
mod language;
mod properties;
mod service;
mod support;
