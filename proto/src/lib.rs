//! Turnier's protobuf contracts: one module per `turnier.<service>.v1` package.
//!
//! Generated code only: prost messages, tonic clients and servers, and (for packages with
//! messages) serde implementations of the canonical proto3 JSON mapping, from pbjson.
//! Conversions to domain types live in each service's `grpc` module.

#![allow(missing_docs, clippy::all)]

pub mod common {
    pub mod v1 {
        tonic::include_proto!("turnier.common.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.common.v1.serde.rs"));
    }
}
pub mod catalog {
    pub mod v1 {
        tonic::include_proto!("turnier.catalog.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.catalog.v1.serde.rs"));
    }
}
pub mod search {
    pub mod v1 {
        tonic::include_proto!("turnier.search.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.search.v1.serde.rs"));
    }
}
pub mod decks {
    pub mod v1 {
        tonic::include_proto!("turnier.decks.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.decks.v1.serde.rs"));
    }
}
pub mod scripts {
    pub mod v1 {
        tonic::include_proto!("turnier.scripts.v1");
        include!(concat!(env!("OUT_DIR"), "/turnier.scripts.v1.serde.rs"));
    }
}
pub mod tournaments {
    pub mod v1 {
        tonic::include_proto!("turnier.tournaments.v1");
    }
}
pub mod calculators {
    pub mod v1 {
        tonic::include_proto!("turnier.calculators.v1");
    }
}

/// The encoded `FileDescriptorSet` of every Turnier package, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("descriptor");
