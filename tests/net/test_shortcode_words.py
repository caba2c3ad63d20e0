"""Short codes without a network: the word lists, reading a code, SPAKE2 and the sealing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairdeal.net.shortcode import (
    CONFIRM,
    PAKE_BYTES,
    Pake,
    ShortCode,
    ShortCodeError,
    WrongCode,
    looks_short,
    new_code,
    parse_short_code,
    seal,
    unseal,
)
from fairdeal.net.wordlist import FIRST, SECOND


def _one_letter_apart(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return len(long) - len(short) == 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# -- the words ----------------------------------------------------------------------------------------
def test_each_list_has_256_simple_words_and_no_word_twice() -> None:
    assert len(FIRST) == len(SECOND) == 256
    every = [*FIRST, *SECOND]
    assert len(set(every)) == 512
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 8 for w in every)


def test_no_two_words_are_one_letter_apart() -> None:
    every = [*FIRST, *SECOND]
    close = [(a, b) for a, b in itertools.combinations(every, 2) if _one_letter_apart(a, b)]
    assert close == []


def test_a_byte_spells_one_word_in_each_place() -> None:
    assert new_code("7", b"\x00\xff").text == f"7-{FIRST[0]}-{SECOND[255]}"
    assert {new_code("1").first for _ in range(200)} <= set(FIRST)


# -- reading a code -----------------------------------------------------------------------------------
@given(st.integers(1, 999_999_999), st.sampled_from(FIRST), st.sampled_from(SECOND))
def test_a_code_reads_back_however_it_is_typed(number: int, first: str, second: str) -> None:
    code = ShortCode(str(number), first, second)
    for typed in (
        code.text,
        f"  {number} {first.upper()} {second}\n",
        f"{number}--{first}- {second.title()}",
    ):
        assert looks_short(typed)
        assert parse_short_code(typed) == code


@pytest.mark.parametrize(
    "typed",
    ["7-brave", "7", "7-brave-otter-extra", "seven-brave-otter", "7-otter-brave", "7-brave-ottre",
     "1234567890-brave-otter", "7-brave-\u00f6tter"],
)  # fmt: skip
def test_a_code_that_cannot_be_one_is_refused_before_anything_is_sent(typed: str) -> None:
    with pytest.raises(ShortCodeError) as err:
        parse_short_code(typed)
    assert "\n" not in str(err.value)


def test_a_long_code_does_not_look_short() -> None:
    assert not looks_short("fd1:aiqcxl6wdvy4frys2ee7626w25gxjn5p5ipxlijv4zxaaaiep4aaaanq4v5mizgu")
    assert looks_short("7-brave-otter") and looks_short("12 brave otter")


def test_an_unknown_word_is_named_so_it_can_be_corrected() -> None:
    with pytest.raises(ShortCodeError, match="'ottre' is not a word of short codes"):
        parse_short_code("7-brave-ottre")


# -- SPAKE2 and the sealing ---------------------------------------------------------------------------
def _keys(host_code: str, joiner_code: str) -> tuple[bytes, bytes]:
    host, joiner = Pake("host", parse_short_code(host_code)), Pake("joiner", parse_short_code(joiner_code))
    assert len(host.message) == len(joiner.message) == PAKE_BYTES
    return host.finish(joiner.message), joiner.finish(host.message)


def test_the_same_code_gives_both_ends_one_key_and_a_sealed_message_opens() -> None:
    host, joiner = _keys("7-brave-otter", "7-brave-otter")
    assert host == joiner
    body = seal(host, "host", "invite", b"fd1:secret")
    assert unseal(joiner, "host", "invite", body) == b"fd1:secret"


@pytest.mark.parametrize("other", ["7-brave-acorn", "8-brave-otter", "7-calm-otter"])
def test_another_code_gives_another_key_and_nothing_opens(other: str) -> None:
    host, joiner = _keys("7-brave-otter", other)
    assert host != joiner
    with pytest.raises(WrongCode, match="wrong or already used"):
        unseal(joiner, "host", "confirm", seal(host, "host", "confirm", CONFIRM))


def test_a_sealed_message_opens_only_for_its_sender_and_phase_and_unchanged() -> None:
    key, _ = _keys("7-brave-otter", "7-brave-otter")
    body = seal(key, "host", "invite", b"fd1:secret")
    for sender, phase in (("joiner", "invite"), ("host", "confirm")):
        with pytest.raises(WrongCode):
            unseal(key, sender, phase, body)  # type: ignore[arg-type]
    for i in (0, 12, len(body) - 1):
        changed = body[:i] + bytes([body[i] ^ 1]) + body[i + 1 :]
        with pytest.raises(WrongCode):
            unseal(key, "host", "invite", changed)
    for cut in (b"", body[:27]):
        with pytest.raises(WrongCode, match="cut short"):
            unseal(key, "host", "invite", cut)


def test_two_seals_of_one_message_differ() -> None:
    key, _ = _keys("7-brave-otter", "7-brave-otter")
    assert seal(key, "host", "invite", b"x") != seal(key, "host", "invite", b"x")


@pytest.mark.parametrize(
    "theirs",
    [b"", b"\x00" * PAKE_BYTES, b"B" + b"\x00" * 32, b"A" + b"\xff" * 32, b"\x42" * (PAKE_BYTES + 1)],
)
def test_a_malformed_key_exchange_message_is_a_wrong_code_never_a_crash(theirs: bytes) -> None:
    with pytest.raises(WrongCode) as err:
        Pake("host", parse_short_code("7-brave-otter")).finish(theirs)
    assert "wrong or already used" in str(err.value)


def test_the_hosts_own_message_reflected_back_is_refused() -> None:
    host = Pake("host", parse_short_code("7-brave-otter"))
    with pytest.raises(WrongCode):
        host.finish(host.message)
