"""The move log: moves in words, each audience reading only what it may know."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core import GameRecord, State, load
from pyramids.play.movelog import MoveLog, describer, record_log


def _play(game: str, seed: int, moves: int, **options: object) -> tuple[State, MoveLog]:
    state = load(game, **options).new_initial_state(seed)
    log = MoveLog(game)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        actor, text = state.current_player, state.action_to_string(action)
        log.record(state, actor, text, False, lambda a=action: state.apply_action(a))
    return state, log


def _texts(log: MoveLog, audience: int | None, lang: str = "en") -> list[list[str]]:
    return [[line.text(lang) for line in entry.lines] for entry in log.for_audience(audience)]


def _lines_for(game: str, state: State, action: int, audience: int | None) -> list[str]:
    """The log lines `audience` reads about `action` played in `state` (a copy)."""
    copy = state.clone()
    actor, text = copy.current_player, copy.action_to_string(action)
    before = copy.view(audience)
    copy.apply_action(action)
    lines = describer(game)(text, actor, audience, before, copy.view(audience))
    return [line.text("en") for line in lines]


# -- privacy: an audience's lines depend only on what it may know -----------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_temple_log_tells_no_seat_what_another_holds(seed: int, players: int) -> None:
    """Swap the cards hidden from an audience for others it cannot tell apart: every
    move without a draw reads the same to it (a draw differs because the pile does)."""
    state = load("temple", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    compared = 0
    while not state.is_terminal() and compared < 60:
        action = rng.choice(state.legal_actions())
        for audience in [*range(players), None]:
            other = state.resample_hidden(audience, random.Random(rng.random()))
            if action not in other.legal_actions():
                continue
            round_before = state.view(None)["round"]
            probe = state.clone()
            probe.apply_action(action)
            if probe.view(None)["round"] != round_before:
                continue
            assert _lines_for("temple", state, action, audience) == _lines_for(
                "temple", other, action, audience
            )
            compared += 1
        state.apply_action(action)
    assert compared > 0


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_pacal_log_hides_the_opponents_hand_and_declined_cards(seed: int) -> None:
    state = load("pacal").new_initial_state(seed)
    rng = random.Random(seed)
    compared = 0
    while not state.is_terminal() and compared < 80:
        action = rng.choice(state.legal_actions())
        round_before = state.view(None)["round"]
        probe = state.clone()
        probe.apply_action(action)
        if probe.view(None)["round"] == round_before:
            for audience in (0, 1, None):
                other = state.resample_hidden(audience, random.Random(rng.random()))
                if action in other.legal_actions():
                    assert _lines_for("pacal", state, action, audience) == _lines_for(
                        "pacal", other, action, audience
                    )
                    compared += 1
        state.apply_action(action)
    assert compared > 0


@pytest.mark.parametrize("seed", range(6))
def test_temple_others_draws_are_counts_and_only_the_owner_reads_cards(seed: int) -> None:
    _state, log = _play("temple", seed, 400, players=4)
    drew_cards = re.compile(r"^You drew .*(card|jewel).*\.$")
    drew_count = re.compile(r"^Seat \d drew \d+ cards?\.$")
    spectator = _texts(log, None)
    assert all("You" not in line and "you" not in line
               for lines in spectator for line in lines)
    rounds = 0
    for seat in range(4):
        for lines in _texts(log, seat):
            for line in lines:
                if " drew " in line:
                    assert drew_cards.match(line) or drew_count.match(line), line
                    assert not line.startswith(f"Seat {seat + 1} drew")
                    rounds += line.startswith("You drew")
    assert rounds > 0


def test_a_pacal_round_tells_its_cause_before_its_winner() -> None:
    """"You could not place a card. Round 1 goes to seat 2.": the reader learns why
    before who, and the cause reads as a sentence of its own (a capital first)."""
    causes = re.compile(r"^(You|Seat \d) (could not place a card|completed the pyramid)\.$"
                        r"|^Both pyramids are complete; |^After the last cards: ")
    ends = 0
    for seed in (1, 2, 3):
        _state, log = _play("pacal", seed, 3000, rounds_to_win=2)
        for audience in (0, None):
            for lines in _texts(log, audience):
                for number, line in enumerate(lines):
                    if re.match(r"^Round \d+ (goes to|is drawn)", line):
                        ends += 1
                        assert number > 0 and causes.match(lines[number - 1]), lines
    assert ends > 0


def test_a_spectator_reads_the_public_lines_of_every_seat() -> None:
    """Whatever a seat reads about another seat's move, except its own cards, the
    spectator reads too: the public part of each entry is the same."""
    _state, log = _play("pacal", 4, 200)
    for seat in (0, 1):
        for own, public in zip(_texts(log, seat), _texts(log, None), strict=True):
            assert len(own) == len(public)
            for mine, theirs in zip(own, public, strict=True):
                if "you" not in mine.lower():
                    assert mine == theirs


# -- moves in words, worked by hand ---------------------------------------------------------


def test_temple_swap_summon_and_set_in_words() -> None:
    state = load("temple", players=2, start_rule="rotate").new_initial_state(7)
    log = MoveLog("temple")
    zone = state.view(None)["swap_zone"]
    hand = state.view(0)["hand"]
    given_kind = next(iter(hand))
    text = f"swap {given_kind} 1"
    log.record(state, 0, text, False,
               lambda: state.apply_action(state.string_to_action(text)))
    (own,) = _texts(log, 0)[0]
    (public,) = _texts(log, None)[0]
    taken = zone[0]

    def words(kind: str) -> str:
        return "1 jewel" if kind == "J" else f"1 level-{kind[1:]} card"

    assert own == f"You gave {words(given_kind)} and took {words(taken)} from the swap zone."
    assert public == (f"Seat 1 gave {words(given_kind)} and took {words(taken)} "
                      "from the swap zone.")


def test_pacal_offer_pick_place_in_words() -> None:
    state = load("pacal").new_initial_state(11)
    log = MoveLog("pacal")
    offerer = state.current_player
    hand = sorted(state.view(offerer)["hand"])
    low, high = hand[0], hand[-1]
    for text in (f"offer {low} {high}", f"pick {high}"):
        actor = state.current_player
        log.record(state, actor, text, False,
                   lambda t=text: state.apply_action(state.string_to_action(t)))
    picker = 1 - offerer
    field = state.view(picker)["legal_fields"][0]
    log.record(state, picker, f"place F{field}", False,
               lambda: state.apply_action(state.string_to_action(f"place F{field}")))
    spectator = _texts(log, None)
    assert spectator[0] == [f"Seat {offerer + 1} offered {low} and {high}."]
    assert spectator[1] == [f"Seat {picker + 1} picked {high}; {low} goes back to "
                            f"seat {offerer + 1}."]
    assert spectator[2][0].startswith(f"Seat {picker + 1} placed {high} on F{field}")
    assert _texts(log, offerer)[1] == [f"Seat {picker + 1} picked {high}; {low} goes back "
                                       "to you."]


def test_a_server_names_people_by_their_names_and_the_reader_stays_you() -> None:
    state = load("pacal").new_initial_state(11)
    log = MoveLog("pacal")
    offerer = state.current_player
    picker = 1 - offerer
    hand = sorted(state.view(offerer)["hand"])
    low, high = hand[0], hand[-1]
    for text in (f"offer {low} {high}", f"pick {high}"):
        log.record(state, state.current_player, text, False,
                   lambda t=text: state.apply_action(state.string_to_action(t)))
    names = {offerer: "Ana", picker: "Bo"}
    spectator = [entry["lines"] for entry in log.as_json(None, "en", names=names)]
    assert spectator == [[f"Ana offered {low} and {high}."],
                         [f"Bo picked {high}; {low} goes back to Ana."]]
    own = [entry["lines"] for entry in log.as_json(offerer, "en", names=names)]
    assert own[1] == [f"Bo picked {high}; {low} goes back to you."]
    # A seat without a name (a bot's) keeps its number; text and JSON text agree.
    partial_names = {offerer: "Ana"}
    assert log.as_json(None, "en", names=partial_names)[1]["lines"] == [
        f"Seat {picker + 1} picked {high}; {low} goes back to Ana."]
    text, count = log.as_json_text(None, "en", names=names)
    assert count == 2 and json.loads(text) == log.as_json(None, "en", names=names)
    # The words are cached by names too: the numbered lines are still there.
    assert json.loads(log.as_json_text(None, "en")[0])[0]["lines"] == [
        f"Seat {offerer + 1} offered {low} and {high}."]
    # In Korean the particle fits the name: a name ending in a vowel takes 가.
    korean = log.as_json(None, "ko", names={offerer: "아나", picker: "보"})
    assert "아나" in korean[0]["lines"][0] and "보" in korean[1]["lines"][0]
    assert "자리" not in " ".join(korean[0]["lines"] + korean[1]["lines"])


@pytest.mark.parametrize(("game", "options"), [
    ("pacal", {"rounds_to_win": 2}), ("temple", {"players": 4}), ("mahjongg", {"players": 3})])
def test_with_every_seat_named_no_line_names_a_seat_by_number(
        game: str, options: dict[str, object]) -> None:
    """Whole games: a server that names every seat gets no "seat 2" in any line, in
    English or Korean, for any audience (every seat's mention goes through seat_words)."""
    for seed in (1, 2):
        state, log = _play(game, seed, 3000, **options)
        assert state.is_terminal()  # the ends of rounds and games are told too
        names = {seat: f"Name{seat}" for seat in range(state.game.num_players)}
        for audience in (*names, None):
            for lang, number in (("en", r"\b[Ss]eat \d"), ("ko", r"\d+번 자리")):
                text = " ".join(line for entry in log.as_json(audience, lang, names=names)
                                for line in entry["lines"])
                assert "Name" in text
                assert not re.search(number, text), (game, audience, lang, text[:300])


def test_a_name_two_seats_share_reads_with_its_seat() -> None:
    from pyramids.play.movelog import distinct_names

    state = load("pacal").new_initial_state(11)
    log = MoveLog("pacal")
    offerer = state.current_player
    hand = sorted(state.view(offerer)["hand"])
    for text in (f"offer {hand[0]} {hand[-1]}", f"pick {hand[-1]}"):
        log.record(state, state.current_player, text, False,
                   lambda t=text: state.apply_action(state.string_to_action(t)))
    names = distinct_names({offerer: "Bea", 1 - offerer: "bea"})
    line = log.as_json(None, "en", names=names)[1]["lines"][0]
    assert line == (f"bea (seat {2 - offerer}) picked {hand[-1]}; {hand[0]} goes back to "
                    f"Bea (seat {offerer + 1}).")
    assert distinct_names({0: "Bea", 1: "Ann"}) == {0: "Bea", 1: "Ann"}


def test_every_game_tells_every_move_without_falling_back_to_action_strings() -> None:
    for game, options in (("temple", {"players": 3}), ("pacal", {}), ("pacal-solo", {}),
                          ("mahjongg", {"players": 2})):
        _state, log = _play(game, 3, 150, **options)
        for audience in (0, None):
            for lines in _texts(log, audience):
                for line in lines:
                    assert not re.search(r": (swap|set|offer|pick|place|match|shift) ", line), \
                        (game, line)


def test_the_log_reads_in_korean() -> None:
    _state, log = _play("temple", 5, 80, players=3)
    korean = _texts(log, 0, "ko")
    english = _texts(log, 0, "en")
    assert korean != english
    hangul = re.compile("[\uac00-\ud7a3]")
    for lines in korean:
        for line in lines:
            assert hangul.search(line), line


def test_a_record_replays_into_the_same_log() -> None:
    state, log = _play("pacal", 9, 60)
    replayed = record_log(GameRecord.from_state(state))
    for audience in (0, 1, None):
        assert _texts(replayed, audience) == _texts(log, audience)


# -- following only the audiences someone reads ----------------------------------------------


@pytest.mark.parametrize(("game", "options"), [
    ("pacal", {}), ("temple", {"players": 3}), ("mahjongg", {"players": 2}),
])
def test_an_audience_caught_up_later_reads_what_it_would_have_read_all_along(
    game: str, options: dict[str, object]
) -> None:
    """A server follows only the connected audiences; one that joins (or comes back)
    later is replayed from the start and reads exactly the entries, and gets the
    latest view, of a log that followed everyone from the first move."""
    seed, moves = 5, 40
    _state, everyone = _play(game, seed, moves, **options)
    state = load(game, **options).new_initial_state(seed)
    lazy = MoveLog(game, start=state.clone())
    rng = random.Random(seed)
    seats = list(range(state.game.num_players))
    for number in range(moves):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        actor, text = state.current_player, state.action_to_string(action)
        # Seat 0 is always there; the spectators come at move 10; seat 1 leaves
        # from move 5 to 20 and comes back.
        follow: set[int | None] = {0}
        if number >= 10:
            follow.add(None)
        if not 5 <= number < 20:
            follow.add(seats[1])
        lazy.record(state, actor, text, False, lambda a=action: state.apply_action(a),
                    follow=follow)
        assert lazy.latest_view(0) == state.view(0)
        assert (lazy.latest_view(None) is None) == (number < 10)
    assert len(lazy) == len(everyone)
    for audience in [*seats, None]:
        lazy.catch_up(audience)
        assert _texts(lazy, audience) == _texts(everyone, audience)
        assert lazy.as_json(audience, "ko") == everyone.as_json(audience, "ko")
        assert lazy.latest_view(audience) == state.view(audience)


def test_a_log_followed_for_nobody_words_no_move_until_asked() -> None:
    state = load("pacal").new_initial_state(3)
    log = MoveLog("pacal", start=state.clone())
    for _ in range(6):
        action = state.legal_actions()[0]
        text = state.action_to_string(action)
        log.record(state, state.current_player, text, False,
                   lambda a=action: state.apply_action(a), follow=())
    assert len(log) == 6 and log.entries == {}
    assert log.latest_view(0) is None
    log.catch_up(1)
    assert [entry.number for entry in log.for_audience(1)] == [1, 2, 3, 4, 5, 6]
    assert log.for_audience(0) == []


def test_an_audience_cannot_fall_behind_without_a_start_to_replay() -> None:
    state = load("pacal").new_initial_state(3)
    log = MoveLog("pacal")
    action = state.legal_actions()[0]
    log.record(state, 0, state.action_to_string(action), False,
               lambda: state.apply_action(action), follow={0})
    with pytest.raises(ValueError, match="start"):
        log.catch_up(1)


def test_the_json_text_of_entries_is_their_json_and_is_made_once() -> None:
    _state, log = _play("temple", 4, 30, players=3)
    for audience, lang, since in ((0, "en", 0), (None, "ko", 12), (2, "ko", 29)):
        text, count = log.as_json_text(audience, lang, since)
        assert json.loads(text) == log.as_json(audience, lang, since)
        assert count == len(log) - since
        again, _count = log.as_json_text(audience, lang, since)
        assert again == text


def test_the_end_of_a_mahjongg_game_says_why_the_score_jumps() -> None:
    """The tokens left are worth points at the end: the log says so, or the final score
    reads higher than the last one shown for no reason."""
    from pyramids.core import load
    from pyramids.play.movelog import describe_for, describer

    state = load("mahjongg").new_initial_state(3)
    before = state.view(0)
    state.apply_string("pass")
    after = state.view(0)
    bonus = after["result"]["token_bonus"][0]
    assert bonus > 0
    lines = [line.text() for line in describe_for(describer("mahjongg"), "pass", 0, 0,
                                                  before, after)]
    assert f"You: +{bonus} for the tokens left." in lines
    assert lines[-1] == f"Scores: you {after['scores'][0]}."


def test_the_line_prompt_table_shows_the_offer_only_while_it_waits_to_be_picked() -> None:
    from pyramids.core import load
    from pyramids.play.text.pacal import render_pacal

    state = load("pacal").new_initial_state(11)
    state.apply_string("offer 3 6")
    picker = state.current_player
    assert "Offer: 3 and 6" in render_pacal(state.view(picker))
    state.apply_action(state.legal_actions()[0])  # picked: now the cards are placed
    assert state.view(picker)["phase"] == "place"
    assert "Offer:" not in render_pacal(state.view(picker))


def test_the_line_prompt_table_explains_temples_set_moves_while_setting() -> None:
    from pyramids.core import load
    from pyramids.play.text.temple import render_temple

    state = load("temple", players=3).new_initial_state(6)
    explained = []
    for _move in range(200):
        if state.is_terminal():
            break
        view = state.view(state.current_player)
        explained.append((view["phase"], "'set C J' lays C cards" in render_temple(view)))
        legal = state.legal_action_strings()
        state.apply_string("summon" if "summon" in legal else legal[0])
    assert any(phase == "set" for phase, _said in explained)
    assert all(said == (phase == "set") for phase, said in explained)


def test_pacal_solo_says_which_card_a_card_covers() -> None:
    """Pacal's log said "covering 12"; the solo game's said only "Placed 26 on F1"."""
    state = load("pacal-solo").new_initial_state(5)
    covered = None
    for _ in range(40):
        view = state.view(0)
        open_fields = [number for number in view["legal_fields"]
                       if len(view["pyramid"][number - 1]) == 1]
        if open_fields:
            covered = view["pyramid"][open_fields[0] - 1][0]
            lines = _lines_for("pacal-solo", state, open_fields[0] - 1, 0)
            break
        state.apply_action(view["legal_fields"][0] - 1)
    assert covered is not None
    assert lines[0] == f"Placed {view['card']} on F{open_fields[0]}, covering {covered}."


def test_temple_sets_name_no_count_of_nothing() -> None:
    """'set two L1 cards and 0 jewel pairs' (Korean: 보석 0쌍) named a count of nothing."""
    seen_set = 0
    for seed in range(6):
        state = load("temple", players=3).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        record = GameRecord.from_state(state, ["random"] * 3)
        log = record_log(record, follow=[None])
        for entry, action in zip(log.for_audience(None), record.actions, strict=True):
            for lang in ("en", "ko"):
                text = " ".join(line.text(lang) for line in entry.lines)
                assert " 0 jewel pair" not in text and "보석 0쌍" not in text, text
                assert "0 level-" not in text and "카드 0장" not in text, text
            seen_set += action.startswith("set ") and action != "set 0 0"
    assert seen_set > 10


def test_a_bot_playing_an_agent_setting_is_named_by_the_agents_words() -> None:
    """`mcts:iterations=5` is an internal: the pages and the log name the bot by its
    agent's words, and two seats that then read alike say their seats."""
    from pyramids.play.i18n import words_text
    from pyramids.play.movelog import table_names

    def read(bots: dict[int, str], lang: str = "en") -> dict[int, str]:
        return {seat: words_text(name, lang)
                for seat, name in table_names({0: "Bea"}, bots).items()}

    assert read({1: "mcts:iterations=5"}) == {0: "Bea", 1: "MCTS tree search (bot)"}
    assert read({1: "mcts:iterations=5"}, "ko")[1] == words_text(
        table_names({}, {1: "mcts"})[1], "ko")
    assert read({1: "mcts:iterations=5", 2: "mcts"}) == {
        0: "Bea", 1: "MCTS tree search (bot, seat 2)", 2: "MCTS tree search (bot, seat 3)"}
    assert read({1: "greedy:mistakes=0.3", 2: "hard"}) == {
        0: "Bea", 1: "Greedy rule (bot)", 2: "Hard (bot)"}
    # A plugin's agent keeps the name its author gave it, without its options.
    assert read({1: "oracle:depth=3"})[1] == "oracle (bot)"
    assert read({1: "Re: Bea"})[1] == "Re: Bea (bot)"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_numbers_in_the_log_are_grouped_as_the_language_does(lang: str) -> None:
    """A Mahjongg pair's points and the final scores read "+1,300 points", "4,900", as
    the board and the score lines beside the log say them (the log said "+1300")."""
    state = load("mahjongg", layout="giza-step-ramp").new_initial_state(4)
    while not state.is_terminal():
        moves = state.legal_action_strings()
        pairs = [text for text in moves if text.startswith("match")]
        state.apply_string(pairs[0] if pairs else "finish" if "finish" in moves else "pass")
    log = record_log(GameRecord.from_state(state, ["human"]), follow=[0])
    lines = [line.text(lang) for entry in log.for_audience(0) for line in entry.lines]
    assert any(re.search(r"\d,\d{3}", line) for line in lines), lines
    assert not [line for line in lines if re.search(r"\d{4}", line)]
