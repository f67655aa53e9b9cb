//! Where an IP address reaches: whether a webhook may be sent to it, by the IANA special-purpose
//! address registries.
//!
//! The rule is the registries' "Globally Reachable" column: an address in a block marked `True`
//! (or in no block of the registry, for IPv6 only inside global unicast `2000::/3`) is
//! [`Reach::Global`]; an address in a block marked `False`, `N/A` or left blank (a terminated
//! block) is not. Of those, loopback, private-use, shared (`100.64.0.0/10`), unique-local and
//! link-local are [`Reach::Local`], which an operator may allow (`TURNIER_WEBHOOK_ALLOW_PRIVATE`,
//! a private deployment's receivers or tests); every other one is [`Reach::Never`], allowed by
//! no setting: nobody receives webhooks at a documentation, benchmarking, broadcast, multicast,
//! discard, reserved or protocol address. The most specific block decides, so the registries'
//! exceptions (`192.0.0.9/32` inside `192.0.0.0/24`, `2001:1::1/128` inside `2001::/23`) hold.
//!
//! Sources, with their "Globally Reachable" column as of 2025 (RFC 9780 added `100:0:0:1::/64`):
//! - <https://www.iana.org/assignments/iana-ipv4-special-registry/> (iana-ipv4-special-registry)
//! - <https://www.iana.org/assignments/iana-ipv6-special-registry/> (iana-ipv6-special-registry)
//!
//! Beyond the registries: multicast (`224.0.0.0/4`, `ff00::/8`) is in registries of its own
//! and never a receiver; IPv6 outside `2000::/3` that no block allows (site-local `fec0::/10`,
//! deprecated by RFC 3879, the IPv4-compatible `::/96`, unassigned space) is never a receiver;
//! and an IPv6 address that carries an IPv4 address ([`embedded_ipv4`]) reaches no further
//! than that IPv4 address does: an IPv4-mapped address is judged as its IPv4 address (it is
//! how a dual-stack socket writes one), and a NAT64 address of `64:ff9b::/96` (globally
//! reachable) only when the IPv4 address it translates to is.
//!
//! Why a table here and not a crate: `ip_network` 0.4 and `ip_rfc` 0.1 follow the IPv4 registry
//! but check only loopback, link-local, unique-local, unspecified, documentation and multicast
//! scope for IPv6 (so `2001::/23`, `64:ff9b:1::/48`, `2002::/16`, `100::/64`, `3fff::/20`,
//! `5f00::/16` and `fec0::/10` would pass, and a global-scope multicast address is "global");
//! `antissrf` 0.1 carries a deny list that blocks globally reachable blocks too (AS112, AMT)
//! without the registries' exceptions and needs reqwest 0.13; the standard library's
//! `is_global` is unstable. The blocks are `ipnet` networks (already in the workspace), built
//! at compile time, so a mistyped prefix does not build.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::{Ipv4Net, Ipv6Net};

/// Where an address reaches, for a webhook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Globally reachable: any webhook may be sent there.
    Global,
    /// Loopback, private-use, shared, unique-local or link-local: only when the operator allows
    /// private addresses.
    Local,
    /// Neither: no webhook is ever sent there.
    Never,
}

/// Returns where `ip` reaches (see the module's rule).
pub fn reach(ip: IpAddr) -> Reach {
    decide(ip).0
}

/// Returns the name of what decides `ip`'s reach, for a message: the registry block's name
/// (`NAT64/DNS64 Discovery`), `global unicast` or `outside global unicast (2000::/3)`.
pub fn deciding_block(ip: IpAddr) -> &'static str {
    decide(ip).1
}

fn decide(ip: IpAddr) -> (Reach, &'static str) {
    match ip {
        IpAddr::V4(ip) => decide_v4(ip),
        IpAddr::V6(ip) => decide_v6(ip),
    }
}

fn decide_v4(ip: Ipv4Addr) -> (Reach, &'static str) {
    most_specific(IPV4, |net| net.contains(&ip))
        .map_or((Reach::Global, "global unicast"), |block| {
            (block.reach, block.name)
        })
}

fn decide_v6(ip: Ipv6Addr) -> (Reach, &'static str) {
    // The registry marks ::ffff:0:0/96 not globally reachable as a destination on the wire, but
    // a socket given one connects to its IPv4 address, so that address decides.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return decide_v4(v4);
    }
    let own = match most_specific(IPV6, |net| net.contains(&ip)) {
        Some(block) => (block.reach, block.name),
        None if GLOBAL_UNICAST.contains(&ip) => (Reach::Global, "global unicast"),
        None => (Reach::Never, "outside global unicast (2000::/3)"),
    };
    if own.0 != Reach::Global {
        return own;
    }
    // A globally reachable address that carries an IPv4 address (NAT64) reaches it.
    match embedded_ipv4(ip)
        .into_iter()
        .map(|(_, v4)| decide_v4(v4))
        .find(|(reach, _)| *reach != Reach::Global)
    {
        Some((_, carried)) => (Reach::Never, carried),
        None => own,
    }
}

/// How an IPv6 address carries an IPv4 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embedding {
    /// `::ffff:0:0/96`, the last 32 bits (RFC 4291 §2.5.5.2).
    Mapped,
    /// `::/96` but `::` and `::1`, the last 32 bits (deprecated, RFC 4291 §2.5.5.1).
    Compatible,
    /// `64:ff9b::/96`, and `64:ff9b:1::/48` read as the /96 networks carve from it: the last
    /// 32 bits (RFC 6052, RFC 8215).
    Nat64,
    /// `2002::/16`, bits 16–47 (RFC 3056).
    SixToFour,
    /// `2001::/32`, the Teredo server in bits 32–63 (RFC 4380).
    TeredoServer,
    /// `2001::/32`, the Teredo client: the last 32 bits, inverted (RFC 4380).
    TeredoClient,
}

/// Returns every IPv4 address `ip` carries, and how.
pub fn embedded_ipv4(ip: Ipv6Addr) -> Vec<(Embedding, Ipv4Addr)> {
    let bits = ip.to_bits();
    let low = Ipv4Addr::from_bits(bits as u32);
    let within = |net: Ipv6Net| net.contains(&ip);
    if within(MAPPED) {
        vec![(Embedding::Mapped, low)]
    } else if within(COMPATIBLE) && bits > 1 {
        vec![(Embedding::Compatible, low)]
    } else if within(NAT64) || within(NAT64_LOCAL) {
        vec![(Embedding::Nat64, low)]
    } else if within(SIX_TO_FOUR) {
        vec![(
            Embedding::SixToFour,
            Ipv4Addr::from_bits((bits >> 80) as u32),
        )]
    } else if within(TEREDO) {
        vec![
            (
                Embedding::TeredoServer,
                Ipv4Addr::from_bits((bits >> 64) as u32),
            ),
            (Embedding::TeredoClient, Ipv4Addr::from_bits(!(bits as u32))),
        ]
    } else {
        Vec::new()
    }
}

/// One block of a registry: the network, its name there, and where its addresses reach.
struct Block<N> {
    net: N,
    name: &'static str,
    reach: Reach,
}

/// The block among `blocks` with the longest prefix that `holds` the address.
fn most_specific<N: PrefixLen>(
    blocks: &'static [Block<N>],
    holds: impl Fn(&N) -> bool,
) -> Option<&'static Block<N>> {
    blocks
        .iter()
        .filter(|block| holds(&block.net))
        .max_by_key(|block| block.net.prefix_len())
}

trait PrefixLen {
    fn prefix_len(&self) -> u8;
}

impl PrefixLen for Ipv4Net {
    fn prefix_len(&self) -> u8 {
        Ipv4Net::prefix_len(self)
    }
}

impl PrefixLen for Ipv6Net {
    fn prefix_len(&self) -> u8 {
        Ipv6Net::prefix_len(self)
    }
}

const fn v4(
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    len: u8,
    name: &'static str,
    reach: Reach,
) -> Block<Ipv4Net> {
    Block {
        net: Ipv4Net::new_assert(Ipv4Addr::new(a, b, c, d), len),
        name,
        reach,
    }
}

const fn v6(segments: [u16; 8], len: u8, name: &'static str, reach: Reach) -> Block<Ipv6Net> {
    Block {
        net: net6(segments, len),
        name,
        reach,
    }
}

const fn net6(s: [u16; 8], len: u8) -> Ipv6Net {
    Ipv6Net::new_assert(
        Ipv6Addr::new(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]),
        len,
    )
}

use Reach::{Global, Local, Never};

/// The IANA IPv4 special-purpose address registry, row by row ("Globally Reachable": `True` is
/// [`Global`]; `False`, `N/A` or blank is [`Local`] or [`Never`]), and multicast.
const IPV4: &[Block<Ipv4Net>] = &[
    v4(0, 0, 0, 0, 8, "\"This network\"", Never),
    v4(0, 0, 0, 0, 32, "\"This host on this network\"", Never),
    v4(10, 0, 0, 0, 8, "Private-Use", Local),
    v4(100, 64, 0, 0, 10, "Shared Address Space", Local),
    v4(127, 0, 0, 0, 8, "Loopback", Local),
    v4(169, 254, 0, 0, 16, "Link Local", Local),
    v4(172, 16, 0, 0, 12, "Private-Use", Local),
    v4(192, 0, 0, 0, 24, "IETF Protocol Assignments", Never),
    v4(192, 0, 0, 0, 29, "IPv4 Service Continuity Prefix", Never),
    v4(192, 0, 0, 8, 32, "IPv4 dummy address", Never),
    v4(192, 0, 0, 9, 32, "Port Control Protocol Anycast", Global),
    v4(
        192,
        0,
        0,
        10,
        32,
        "Traversal Using Relays around NAT Anycast",
        Global,
    ),
    v4(192, 0, 0, 170, 32, "NAT64/DNS64 Discovery", Never),
    v4(192, 0, 0, 171, 32, "NAT64/DNS64 Discovery", Never),
    v4(192, 0, 2, 0, 24, "Documentation (TEST-NET-1)", Never),
    v4(192, 31, 196, 0, 24, "AS112-v4", Global),
    v4(192, 52, 193, 0, 24, "AMT", Global),
    // Terminated in 2015 (RFC 7526): the registry's columns are blank.
    v4(192, 88, 99, 0, 24, "Deprecated (6to4 Relay Anycast)", Never),
    v4(192, 88, 99, 2, 32, "6a44-relay anycast address", Never),
    v4(192, 168, 0, 0, 16, "Private-Use", Local),
    v4(
        192,
        175,
        48,
        0,
        24,
        "Direct Delegation AS112 Service",
        Global,
    ),
    v4(198, 18, 0, 0, 15, "Benchmarking", Never),
    v4(198, 51, 100, 0, 24, "Documentation (TEST-NET-2)", Never),
    v4(203, 0, 113, 0, 24, "Documentation (TEST-NET-3)", Never),
    v4(240, 0, 0, 0, 4, "Reserved", Never),
    v4(255, 255, 255, 255, 32, "Limited Broadcast", Never),
    // Not in the special-purpose registry: the IPv4 multicast address space (RFC 5771).
    v4(224, 0, 0, 0, 4, "Multicast", Never),
];

/// The IANA IPv6 special-purpose address registry, row by row ("Globally Reachable": `True` is
/// [`Global`]; `False`, `N/A` or blank is [`Local`] or [`Never`]). Multicast (`ff00::/8`) and
/// site-local (`fec0::/10`) need no row: they are outside [`GLOBAL_UNICAST`].
const IPV6: &[Block<Ipv6Net>] = &[
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "Loopback Address", Local),
    v6([0; 8], 128, "Unspecified Address", Never),
    // Judged as the IPv4 address it maps before this table is read (see `decide_v6`).
    v6(
        [0, 0, 0, 0, 0, 0xffff, 0, 0],
        96,
        "IPv4-mapped Address",
        Never,
    ),
    v6(
        [0x64, 0xff9b, 0, 0, 0, 0, 0, 0],
        96,
        "IPv4-IPv6 Translat.",
        Global,
    ),
    v6(
        [0x64, 0xff9b, 1, 0, 0, 0, 0, 0],
        48,
        "IPv4-IPv6 Translat.",
        Never,
    ),
    v6(
        [0x100, 0, 0, 0, 0, 0, 0, 0],
        64,
        "Discard-Only Address Block",
        Never,
    ),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "Dummy IPv6 Prefix", Never),
    v6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        23,
        "IETF Protocol Assignments",
        Never,
    ),
    // "N/A": reachable only as far as the IPv4 addresses it carries are, through relays that
    // are mostly gone; refused like 6to4.
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "TEREDO", Never),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 1],
        128,
        "Port Control Protocol Anycast",
        Global,
    ),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 2],
        128,
        "Traversal Using Relays around NAT Anycast",
        Global,
    ),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 3],
        128,
        "DNS-SD Service Registration Protocol Anycast",
        Global,
    ),
    v6([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, "Benchmarking", Never),
    v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, "AMT", Global),
    v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, "AS112-v6", Global),
    // Terminated in 2014: the registry's columns are blank.
    v6(
        [0x2001, 0x10, 0, 0, 0, 0, 0, 0],
        28,
        "Deprecated (previously ORCHID)",
        Never,
    ),
    v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, "ORCHIDv2", Global),
    v6(
        [0x2001, 0x30, 0, 0, 0, 0, 0, 0],
        28,
        "Drone Remote ID Protocol Entity Tags (DETs) Prefix",
        Global,
    ),
    v6(
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        "Documentation",
        Never,
    ),
    // "N/A" (see the Teredo row).
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "6to4", Never),
    v6(
        [0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0],
        48,
        "Direct Delegation AS112 Service",
        Global,
    ),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "Documentation", Never),
    v6(
        [0x5f00, 0, 0, 0, 0, 0, 0, 0],
        16,
        "Segment Routing (SRv6) SIDs",
        Never,
    ),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "Unique-Local", Local),
    v6(
        [0xfe80, 0, 0, 0, 0, 0, 0, 0],
        10,
        "Link-Local Unicast",
        Local,
    ),
];

/// Global unicast (RFC 4291 §2.4): outside it, only the registry's blocks may be reached.
const GLOBAL_UNICAST: Ipv6Net = net6([0x2000, 0, 0, 0, 0, 0, 0, 0], 3);
const MAPPED: Ipv6Net = net6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96);
const COMPATIBLE: Ipv6Net = net6([0; 8], 96);
const NAT64: Ipv6Net = net6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96);
const NAT64_LOCAL: Ipv6Net = net6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48);
const SIX_TO_FOUR: Ipv6Net = net6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16);
const TEREDO: Ipv6Net = net6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32);

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse()
            .unwrap_or_else(|_| panic!("{text} is an address"))
    }

    /// One address inside every block of both registries (and multicast), with the reach its
    /// "Globally Reachable" column gives; written from the registries, not from the table.
    const REGISTRY_EXAMPLES: &[(&str, Reach)] = &[
        // iana-ipv4-special-registry
        ("0.1.2.3", Never),         // 0.0.0.0/8 "This network"
        ("0.0.0.0", Never),         // 0.0.0.0/32 "This host on this network"
        ("10.1.2.3", Local),        // 10.0.0.0/8 Private-Use
        ("100.64.0.1", Local),      // 100.64.0.0/10 Shared Address Space
        ("100.127.255.254", Local), // its last host
        ("127.0.0.1", Local),       // 127.0.0.0/8 Loopback
        ("127.255.255.254", Local),
        ("169.254.169.254", Local), // 169.254.0.0/16 Link Local (cloud metadata)
        ("172.16.0.1", Local),      // 172.16.0.0/12 Private-Use
        ("172.31.255.254", Local),
        ("192.0.0.1", Never),     // 192.0.0.0/29 IPv4 Service Continuity Prefix
        ("192.0.0.8", Never),     // 192.0.0.8/32 IPv4 dummy address
        ("192.0.0.9", Global),    // 192.0.0.9/32 Port Control Protocol Anycast
        ("192.0.0.10", Global),   // 192.0.0.10/32 TURN Anycast
        ("192.0.0.100", Never),   // 192.0.0.0/24 IETF Protocol Assignments
        ("192.0.0.170", Never),   // 192.0.0.170/32 NAT64/DNS64 Discovery
        ("192.0.0.171", Never),   // 192.0.0.171/32 NAT64/DNS64 Discovery
        ("192.0.2.1", Never),     // 192.0.2.0/24 Documentation (TEST-NET-1)
        ("192.31.196.1", Global), // 192.31.196.0/24 AS112-v4
        ("192.52.193.1", Global), // 192.52.193.0/24 AMT
        ("192.88.99.1", Never),   // 192.88.99.0/24 Deprecated (6to4 Relay Anycast)
        ("192.88.99.2", Never),   // 192.88.99.2/32 6a44-relay anycast address
        ("192.168.1.1", Local),   // 192.168.0.0/16 Private-Use
        ("192.175.48.1", Global), // 192.175.48.0/24 Direct Delegation AS112 Service
        ("198.18.0.1", Never),    // 198.18.0.0/15 Benchmarking
        ("198.19.255.254", Never),
        ("198.51.100.1", Never), // 198.51.100.0/24 Documentation (TEST-NET-2)
        ("203.0.113.1", Never),  // 203.0.113.0/24 Documentation (TEST-NET-3)
        ("240.0.0.1", Never),    // 240.0.0.0/4 Reserved
        ("254.255.255.254", Never),
        ("255.255.255.255", Never), // 255.255.255.255/32 Limited Broadcast
        ("224.0.0.1", Never),       // multicast (RFC 5771)
        ("239.255.255.250", Never),
        // iana-ipv6-special-registry
        ("::1", Local),             // ::1/128 Loopback Address
        ("::", Never),              // ::/128 Unspecified Address
        ("::ffff:10.0.0.1", Local), // ::ffff:0:0/96 IPv4-mapped: as its IPv4 address
        ("::ffff:192.0.2.1", Never),
        ("64:ff9b::808:808", Global), // 64:ff9b::/96 IPv4-IPv6 Translat. (8.8.8.8)
        ("64:ff9b:1::808:808", Never), // 64:ff9b:1::/48 IPv4-IPv6 Translat. (local use)
        ("100::1", Never),            // 100::/64 Discard-Only Address Block
        ("100:0:0:1::1", Never),      // 100:0:0:1::/64 Dummy IPv6 Prefix
        ("2001:100::1", Never),       // 2001::/23 IETF Protocol Assignments
        ("2001::1", Never),           // 2001::/32 TEREDO
        ("2001:1::1", Global),        // 2001:1::1/128 Port Control Protocol Anycast
        ("2001:1::2", Global),        // 2001:1::2/128 TURN Anycast
        ("2001:1::3", Global),        // 2001:1::3/128 DNS-SD SRP Anycast
        ("2001:1::4", Never),         // (2001::/23 around them)
        ("2001:2::1", Never),         // 2001:2::/48 Benchmarking
        ("2001:3::1", Global),        // 2001:3::/32 AMT
        ("2001:4:112::1", Global),    // 2001:4:112::/48 AS112-v6
        ("2001:10::1", Never),        // 2001:10::/28 Deprecated (previously ORCHID)
        ("2001:20::1", Global),       // 2001:20::/28 ORCHIDv2
        ("2001:30::1", Global),       // 2001:30::/28 DETs Prefix
        ("2001:40::1", Never),        // (2001::/23 after them)
        ("2001:db8::1", Never),       // 2001:db8::/32 Documentation
        ("2002:808:808::1", Never),   // 2002::/16 6to4
        ("2620:4f:8000::1", Global),  // 2620:4f:8000::/48 Direct Delegation AS112 Service
        ("3fff::1", Never),           // 3fff::/20 Documentation
        ("5f00::1", Never),           // 5f00::/16 Segment Routing (SRv6) SIDs
        ("fc00::1", Local),           // fc00::/7 Unique-Local
        ("fd12:3456::1", Local),
        ("fe80::1", Local), // fe80::/10 Link-Local Unicast
        ("febf::1", Local),
        ("fec0::1", Never), // site-local, deprecated (RFC 3879), not in the registry
        ("ff02::1", Never), // multicast, link-local scope
        ("ff0e::1", Never), // multicast, global scope: still not a receiver
        ("4000::1", Never), // unassigned, outside 2000::/3
        ("::127.0.0.1", Never), // IPv4-compatible (::/96), deprecated
        ("::8.8.8.8", Never),
    ];

    #[test]
    fn every_block_of_both_registries_reaches_as_its_globally_reachable_column_says() {
        for (address, expected) in REGISTRY_EXAMPLES {
            assert_eq!(reach(ip(address)), *expected, "{address}");
        }
    }

    #[test]
    fn every_block_of_the_table_has_an_example_that_it_decides() {
        let examples: Vec<IpAddr> = REGISTRY_EXAMPLES.iter().map(|(a, _)| ip(a)).collect();
        for block in IPV4 {
            let decided = examples.iter().any(|example| match example {
                IpAddr::V4(v4) => most_specific(IPV4, |net| net.contains(v4))
                    .is_some_and(|found| std::ptr::eq(found, block)),
                IpAddr::V6(_) => false,
            });
            assert!(decided, "no example for {} {}", block.net, block.name);
        }
        for block in IPV6 {
            let decided = examples.iter().any(|example| match example {
                IpAddr::V6(v6) => most_specific(IPV6, |net| net.contains(v6))
                    .is_some_and(|found| std::ptr::eq(found, block)),
                IpAddr::V4(_) => false,
            });
            assert!(decided, "no example for {} {}", block.net, block.name);
        }
    }

    #[test]
    fn the_probes_addresses_are_never_reached() {
        for address in [
            "192.0.0.170",
            "192.0.0.1",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
            "fec0::1",
        ] {
            assert_eq!(reach(ip(address)), Never, "{address}");
        }
    }

    #[test]
    fn ordinary_public_addresses_are_reached() {
        for address in [
            "8.8.8.8",
            "1.1.1.1",
            "93.184.216.34",
            "192.0.1.1",
            "192.0.3.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "2001:4860:4860::8888",
            "2a00:1450:4001::1",
            "::ffff:8.8.8.8",
            "64:ff9b::101:101",
        ] {
            assert_eq!(reach(ip(address)), Global, "{address}");
        }
    }

    #[test]
    fn a_nat64_address_reaches_only_as_far_as_its_ipv4_address() {
        assert_eq!(reach(ip("64:ff9b::a00:1")), Never, "10.0.0.1 behind NAT64");
        assert_eq!(reach(ip("64:ff9b::c000:2aa")), Never, "192.0.2.170");
        assert_eq!(reach(ip("64:ff9b::808:808")), Global, "8.8.8.8");
    }

    #[test]
    fn the_ipv4_address_inside_an_ipv6_address_is_read_from_each_embedding() {
        let embedded = |text: &str| match ip(text) {
            IpAddr::V6(v6) => embedded_ipv4(v6),
            IpAddr::V4(_) => unreachable!("an IPv6 address"),
        };
        let v4 = |text: &str| text.parse::<Ipv4Addr>().expect("an IPv4 address");
        assert_eq!(
            embedded("::ffff:127.0.0.1"),
            [(Embedding::Mapped, v4("127.0.0.1"))]
        );
        assert_eq!(
            embedded("::127.0.0.1"),
            [(Embedding::Compatible, v4("127.0.0.1"))]
        );
        assert_eq!(
            embedded("64:ff9b::7f00:1"),
            [(Embedding::Nat64, v4("127.0.0.1"))]
        );
        assert_eq!(
            embedded("64:ff9b:1::c0a8:101"),
            [(Embedding::Nat64, v4("192.168.1.1"))]
        );
        assert_eq!(
            embedded("2002:7f00:1::"),
            [(Embedding::SixToFour, v4("127.0.0.1"))]
        );
        // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 behind port 40000.
        assert_eq!(
            embedded("2001:0:4136:e378:8000:63bf:3fff:fdd2"),
            [
                (Embedding::TeredoServer, v4("65.54.227.120")),
                (Embedding::TeredoClient, v4("192.0.2.45")),
            ]
        );
        assert!(embedded("::1").is_empty() && embedded("::").is_empty());
        assert!(embedded("2606:4700::1111").is_empty());
    }
}
