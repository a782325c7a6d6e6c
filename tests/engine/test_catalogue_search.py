"""The catalogue search an editor's unit picker uses: by name, nationality and year."""

from __future__ import annotations

import dataclasses

import pytest

from game.engine.catalogue import nationalities, search_units, unit_types


def test_name_words_in_any_case_match_name_or_key():
    assert [u.key for u in search_units("t-34")] == ["t34m43", "t34m44"]
    assert {u.key for u in search_units("SHERMAN m4a3")} == {"m4a3e8"}
    assert search_units("no such tank") == ()


def test_empty_search_lists_the_whole_catalogue_sorted():
    found = search_units()
    assert {u.key for u in found} == set(unit_types())
    keys = [(u.nationality, u.category) for u in found]
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)


def test_nationality_filters():
    assert nationalities() == ("american", "british", "german", "russian")
    found = search_units(nationality="British")
    assert found and {u.nationality for u in found} == {"british"}


@pytest.mark.parametrize("year", [1942, "1942-12"])
def test_year_keeps_what_was_available_by_then(year):
    found = {u.key for u in search_units(nationality="german", year=year)}
    assert "pz6e" in found  # available 1942-09
    assert "pz5g" not in found  # available 1943-07
    assert "pz4h" not in found  # available 1943-04


def test_month_precision_and_undated_types():
    before = {u.key for u in search_units(nationality="german", year="1943-06")}
    after = {u.key for u in search_units(nationality="german", year="1943-07")}
    assert after - before == {"pz5g"}
    undated = [u for u in unit_types().values() if u.available is None]
    assert undated and all(u in search_units(year=1939) for u in undated)


def test_results_are_frozen_values():
    u = search_units("tiger")[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.name = "x"  # type: ignore[misc]
