//! The client's address behind the proxies the operator trusts (an ingress, a load balancer):
//! what the rate limits, the sign-in guard and the sandbox's fair admission count anonymous
//! callers by. Without it every request behind an ingress would come from the ingress, and one
//! client's failed sign-ins would hold every other client's back.
//!
//! A request whose connection comes from a trusted proxy is read through its
//! `X-Forwarded-For`, right to left: each trusted hop is skipped, and the first address that is
//! not trusted is the client. A request from anywhere else is its connection's peer, whatever
//! headers it sends, so nobody can pose as another address by writing the header.

use std::net::{IpAddr, SocketAddr};

use http::HeaderMap;
use ipnet::IpNet;

/// The header proxies append the address they received a request from to.
pub const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The proxies whose `X-Forwarded-For` is believed: addresses and networks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

/// A `TURNIER_TRUSTED_PROXIES` entry that is neither an address nor a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an IP address or a network (10.0.0.0/8, 2001:db8::/32, 192.168.1.5)")]
pub struct InvalidProxy(pub String);

impl TrustedProxies {
    /// Reads a comma-separated list of addresses and networks (empty: trust none).
    pub fn parse(text: &str) -> Result<Self, InvalidProxy> {
        text.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| InvalidProxy(kit::status::quote(entry)))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    /// Returns whether `address` is a trusted proxy.
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        self.0.iter().any(|net| net.contains(&address))
    }

    /// Returns whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Returns the client a request from `peer` with `headers` was made by.
    pub fn client(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = canonical(peer?);
        if !self.contains(peer) {
            return Some(peer);
        }
        let hops: Vec<&str> = headers
            .get_all(X_FORWARDED_FOR)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .collect();
        let mut client = peer;
        for hop in hops.into_iter().rev() {
            match hop_address(hop) {
                Some(address) => {
                    client = address;
                    if !self.contains(address) {
                        return Some(address);
                    }
                }
                // A hop nobody could have written but the client: the last good one is it.
                None => return Some(client),
            }
        }
        Some(client)
    }
}

/// Reads one hop of `X-Forwarded-For`: an address, an address with a port, or a bracketed
/// IPv6 address with or without one.
fn hop_address(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
        .or_else(|| {
            hop.strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|inner| inner.parse().ok())
        })
        .map(canonical)
}

/// An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, as a dual-stack listener sees IPv4
/// peers) is the IPv4 address.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(X_FORWARDED_FOR, value.parse().expect("a header value"));
        }
        headers
    }

    #[test]
    fn reads_addresses_and_networks_and_refuses_the_rest() {
        let trusted =
            TrustedProxies::parse(" 10.0.0.0/8, 192.168.1.5 ,2001:db8::/32,").expect("valid");
        assert!(trusted.contains(ip("10.1.2.3")));
        assert!(trusted.contains(ip("::ffff:10.1.2.3")));
        assert!(trusted.contains(ip("192.168.1.5")));
        assert!(!trusted.contains(ip("192.168.1.6")));
        assert!(trusted.contains(ip("2001:db8::7")));
        assert!(TrustedProxies::parse("").expect("valid").is_empty());
        assert_eq!(
            TrustedProxies::parse("10.0.0.0/8, ingress").unwrap_err(),
            InvalidProxy("ingress".to_owned())
        );
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
    }

    #[test]
    fn the_client_is_the_first_untrusted_hop_from_the_right() {
        let trusted = TrustedProxies::parse("10.0.0.0/8").expect("valid");
        let ingress = Some(ip("10.0.0.2"));
        // The ingress appended the client; a second trusted hop is skipped.
        assert_eq!(
            trusted.client(ingress, &headers(&["203.0.113.7, 10.0.0.9"])),
            Some(ip("203.0.113.7"))
        );
        // What the client wrote itself, left of its real address, is ignored.
        assert_eq!(
            trusted.client(ingress, &headers(&["198.51.100.1, 203.0.113.7"])),
            Some(ip("203.0.113.7"))
        );
        // Several headers are one list, in order; ports and brackets are read.
        assert_eq!(
            trusted.client(ingress, &headers(&["198.51.100.1", "203.0.113.7:5123"])),
            Some(ip("203.0.113.7"))
        );
        assert_eq!(
            trusted.client(ingress, &headers(&["[2001:db8::1]:443"])),
            Some(ip("2001:db8::1"))
        );
        // No header, or nothing but trusted hops: the last trusted hop.
        assert_eq!(trusted.client(ingress, &HeaderMap::new()), ingress);
        assert_eq!(
            trusted.client(ingress, &headers(&["10.0.0.5"])),
            Some(ip("10.0.0.5"))
        );
        // Garbage stops the walk at the last good hop.
        assert_eq!(
            trusted.client(ingress, &headers(&["nonsense, 10.0.0.5"])),
            Some(ip("10.0.0.5"))
        );
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let trusted = TrustedProxies::parse("10.0.0.0/8").expect("valid");
        let peer = Some(ip("203.0.113.7"));
        assert_eq!(trusted.client(peer, &headers(&["198.51.100.1"])), peer);
        assert_eq!(
            TrustedProxies::default().client(Some(ip("10.0.0.2")), &headers(&["198.51.100.1"])),
            Some(ip("10.0.0.2"))
        );
        assert_eq!(trusted.client(None, &headers(&["198.51.100.1"])), None);
    }
}
