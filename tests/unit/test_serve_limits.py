"""The rate limiters' bookkeeping: a peek takes nothing, the table is bounded, IPv6 clients by /64."""

from __future__ import annotations

from workbench.serve.ratelimit import RateLimiter, client_key


def test_wait_peeks_without_taking_and_take_spends_the_allowance() -> None:
    now = [0.0]
    limiter = RateLimiter(rate=0.5, burst=2, clock=lambda: now[0])
    assert limiter.wait("a") == 0.0 and limiter.wait("a") == 0.0  # peeking spends nothing
    assert limiter.take("a") == 0.0 and limiter.take("a") == 0.0
    assert limiter.wait("a") == 2.0 and limiter.take("a") == 2.0  # spent: two seconds to the next one
    assert limiter.wait("b") == 0.0  # another client has its own
    now[0] += 2.0
    assert limiter.wait("a") == 0.0 and limiter.take("a") == 0.0


def test_the_table_of_clients_stays_bounded_dropping_the_least_recently_seen() -> None:
    now = [0.0]
    limiter = RateLimiter(rate=0.001, burst=1, clock=lambda: now[0], max_clients=3)
    for client in ("a", "b", "c"):
        limiter.take(client)
    limiter.take("a")  # seen again: now the most recent
    limiter.take("d")  # over the bound, none idle long enough: "b", the least recent, goes
    assert set(limiter._buckets) == {"a", "c", "d"}


def test_clients_are_keyed_by_address_and_ipv6_by_its_64() -> None:
    assert client_key("127.0.0.1") == "127.0.0.1"
    assert client_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("testclient") == "testclient"  # not an address: itself
