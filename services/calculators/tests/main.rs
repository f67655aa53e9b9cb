//! The calculators service's tests, in one binary: the store on PostgreSQL and SQLite.

mod store;
