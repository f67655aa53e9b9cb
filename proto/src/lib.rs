//! Turnier's protobuf contracts: one module per `turnier.<service>.v1` package, and the few
//! things every side of a contract needs to agree on.
//!
//! The package modules are generated code: prost messages, tonic clients and servers, and (for
//! packages with messages) serde implementations of the canonical proto3 JSON mapping, from
//! pbjson. Besides them, [`game`] is the one plain value every service shares (the game) with
//! its wire value, and [`json`] writes the documented JSON of the messages whose canonical mapping
//! leaves out what the documents require (script results), so the gateway and the CLI print
//! them without depending on the service that made them; [`tournaments_json`] does the same for
//! the tournaments API (its answers, and its create body read into a request). Conversions to a
//! service's own domain types live in that service's `grpc` module.

pub mod game;
pub mod json;
pub mod text;
pub mod tournaments_json;

#[allow(missing_docs, clippy::all)]
pub mod common {
    pub mod v1 {
        tonic::include_proto!("turnier.common.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.common.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod catalog {
    pub mod v1 {
        tonic::include_proto!("turnier.catalog.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.catalog.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod search {
    pub mod v1 {
        tonic::include_proto!("turnier.search.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.search.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod decks {
    pub mod v1 {
        tonic::include_proto!("turnier.decks.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.decks.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod scripts {
    pub mod v1 {
        tonic::include_proto!("turnier.scripts.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.scripts.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod tournaments {
    pub mod v1 {
        tonic::include_proto!("turnier.tournaments.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.tournaments.v1.serde.rs"));
    }
}
#[allow(missing_docs, clippy::all)]
pub mod accounts {
    pub mod v1 {
        tonic::include_proto!("turnier.accounts.v1");
    }
}
#[allow(missing_docs, clippy::all)]
pub mod calculators {
    pub mod v1 {
        tonic::include_proto!("turnier.calculators.v1");
    }
}

/// The encoded `FileDescriptorSet` of every Turnier package, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("descriptor");
