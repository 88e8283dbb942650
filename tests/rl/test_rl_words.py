"""The environments' refusals go through the message catalogue: a researcher who runs
pyramids in Korean reads them in Korean (they were English whatever the language:
"opponents is a level ..."), each keeping its error type and saying what is allowed.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pyramids.play import i18n  # noqa: E402
from pyramids.rl import PyramidsGymEnv, env  # noqa: E402
from pyramids.rl.encoding import as_action, as_seed, encoder_for, illegal_reason  # noqa: E402


@pytest.fixture
def korean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(i18n, "_chosen", "ko")
    yield


def _hangul(text: str) -> bool:
    return any("가" <= char <= "힣" for char in text)


def test_the_gymnasium_refusals_speak_korean(korean: None) -> None:
    with pytest.raises(TypeError) as wrong:
        PyramidsGymEnv("pacal", opponents=3)
    assert str(wrong.value).startswith("opponents는 수준(easy, medium, hard, expert), ")
    assert str(wrong.value).endswith("또는 그 목록입니다; 받은 값: 3")
    with pytest.raises(TypeError, match="^각 상대는 수준.*받은 값: None$"):
        PyramidsGymEnv("temple", players=3, opponents=["hard", None])
    with pytest.raises(ValueError) as unknown:
        PyramidsGymEnv("pacal", opponents="nobody")
    assert str(unknown.value).startswith("상대 'nobody': ")
    assert _hangul(str(unknown.value).removeprefix("상대 'nobody': "))  # the agents' words too
    with pytest.raises(ValueError, match="시간으로 생각하므로.*mcts:iterations=200"):
        PyramidsGymEnv("pacal", opponents="mcts")
    with pytest.raises(ValueError, match=r"^seat은 0부터 1까지의 자리 번호 또는 'rotate'입니다"
                                         r"\(pacal: 2인용\); 받은 값: 5$"):
        PyramidsGymEnv("pacal", opponents="hard", seat=5)
    with pytest.raises(ValueError, match="^옵션 .*1인용이라 상대가 앉을 자리가 없습니다"):
        PyramidsGymEnv("pacal-solo", opponents="hard")


def test_an_episode_and_its_resets_refuse_in_korean_and_change_nothing(korean: None) -> None:
    gym = PyramidsGymEnv("pacal", opponents="hard")
    with pytest.raises(RuntimeError, match=r"^환경을 쓰기 전에 reset\(\)을 호출하세요$"):
        gym.step(0)
    gym.reset(seed=1)
    before = gym.state.to_json() if gym.state is not None else None
    with pytest.raises(ValueError, match=r"^reset 옵션 \['colour'\]은\(는\) 쓸 수 없습니다"):
        gym.reset(options={"colour": 1})
    with pytest.raises(ValueError, match="^reset 옵션 seat은 0부터 1까지의 자리 번호입니다"):
        gym.reset(options={"seat": 7})
    with pytest.raises(TypeError, match="^reset 옵션은 옵션 이름과 값의 dict"):
        gym.reset(options=[1])
    with pytest.raises(ValueError, match="^시드는 0 이상의 정수입니다. -1은 시드가 아닙니다$"):
        gym.reset(seed=-1)
    assert gym.state is not None and gym.state.to_json() == before
    with pytest.raises(TypeError, match=r"^행동은 정수\(action mask의 인덱스\)입니다"):
        gym.step(2.5)
    with pytest.raises(ValueError, match="^render_mode 'svg'은\\(는\\) 지원하지 않습니다"):
        PyramidsGymEnv("pacal", opponents="hard", render_mode="svg")


def test_the_pettingzoo_refusals_speak_korean(korean: None) -> None:
    aec = env("pacal")
    with pytest.raises(RuntimeError, match=r"^환경을 쓰기 전에 reset\(\)을 호출하세요$"):
        aec.last()
    aec.reset(seed=2)
    with pytest.raises(ValueError, match="^알 수 없는 에이전트 'player_9'; 에이전트는 "
                                         "player_0, player_1입니다$"):
        aec.observe("player_9")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aec.reset(seed=2, options={"colour": 1})
    assert any("pacal의 옵션이 아니어서 쓰지 않습니다" in str(w.message) for w in caught)
    with pytest.raises(KeyError, match="관측 배치에 특성 'nowhere'이\\(가\\) 없습니다"):
        encoder_for("pacal").layout.offset("nowhere")
    illegal = next(a for a in range(aec.action_space("player_0").n)
                   if a not in aec.state_.legal_actions())
    assert _hangul(illegal_reason(aec.state_, illegal))  # the engine's words, in Korean
    assert illegal_reason(aec.state_, None).startswith("행동이 주어지지 않았습니다(None)")


def test_english_stays_as_it_was() -> None:
    with pytest.raises(TypeError, match=r"^opponents is a level \(easy, medium, hard, expert\)"
                                        r".*, or a list of them; got 3$"):
        PyramidsGymEnv("pacal", opponents=3)
    with pytest.raises(TypeError, match=r"^a seed is a whole number of 0 or more \(or None\), "
                                        r"not 'x'$"):
        as_seed("x")
    with pytest.raises(TypeError, match=r"^an action is a whole number .*, not 'x'$"):
        as_action("x")
