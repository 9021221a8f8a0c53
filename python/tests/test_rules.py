"""Every rule case of tests/data/rules/ through Board.outcome(): the verdict,
the window, the rule, the illegal and legal next moves; and the explanation
is what `chariot judge` prints."""

import subprocess

import pytest

import chariot
from conftest import CLI, rule_cases

ASIAN = rule_cases("cases.jsonl") + rule_cases("extra.jsonl")
CHINESE = rule_cases("cases-chinese.jsonl") + rule_cases("extra-chinese.jsonl")


def play(case):
    board = chariot.Board(case["fen"])
    for m in case["moves"]:
        board.push(m)
    return board


def verdict(outcome):
    return "none" if outcome is None else outcome.verdict


def check(case, board, rules, expected):
    fen = board.fen()
    outcome = board.outcome(rules=rules, kill_depth=case.get("kill_depth", 3))
    assert verdict(outcome) == expected, (case["id"], outcome and outcome.explanation)
    assert board.fen() == fen
    if outcome is None:
        return
    assert outcome.result == {"red_wins": "1-0", "black_wins": "0-1", "draw": "1/2-1/2"}[expected]
    assert outcome.winner == {"red_wins": True, "black_wins": False, "draw": None}[expected]
    lines = outcome.explanation.splitlines()
    assert lines[0] == f"verdict {expected}"
    assert lines[1] == f"rule: {outcome.reason}"
    window = case.get("ruling_window_plies")
    if window is not None:
        assert f"window: plies {window[0]}-{window[1]}," in outcome.explanation


@pytest.mark.parametrize("case", ASIAN, ids=[c["id"] for c in ASIAN])
def test_asian_cases(case):
    board = play(case)
    check(case, board, "asian", case["expected"])
    for m in case.get("illegal_next", []):
        assert not board.is_legal(m), (case["id"], m)
        with pytest.raises(chariot.IllegalMoveError):
            board.push(m)
    if case.get("legal_next") is not None:
        assert sorted(str(m) for m in board.legal_moves) == sorted(case["legal_next"])


@pytest.mark.parametrize("case", CHINESE, ids=[c["id"] for c in CHINESE])
def test_chinese_cases(case):
    board = play(case)
    check(case, board, "chinese", case["expected"])
    check(case, board, "asian", case["asian"])


def test_rule_case_counts():
    assert len(ASIAN) == 275 and len(CHINESE) == 169


@pytest.mark.skipif(not CLI.exists(), reason="needs target/release/chariot (cargo build --release)")
@pytest.mark.parametrize("rules", ["asian", "chinese"])
def test_explanation_is_what_judge_prints(rules):
    cases = ASIAN[:20] if rules == "asian" else CHINESE[:20]
    for case in cases:
        board = play(case)
        outcome = board.outcome(rules=rules)
        printed = subprocess.run(
            [CLI, "judge", "--rules", rules, case["fen"], "moves", *case["moves"]],
            capture_output=True, text=True, check=True,
        ).stdout
        if outcome is None:
            assert printed.startswith("verdict none\n")
        else:
            assert printed == outcome.explanation + "\n", case["id"]
