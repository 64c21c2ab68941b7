"""tools/install_torch.py: each source of PyTorch's CPU build is asked once, and where none has
one the environment gets PyPI's build or none, said loudly; pip is never sent to an index that
did not answer."""

import install_torch
import pytest
from conftest import closed_port_url


@pytest.fixture
def index(answering_server):
    """A stand-in for PyTorch's index on 127.0.0.1."""
    base, state = answering_server
    return f"{base}/whl/cpu", state


def test_an_index_that_answers_is_reachable(index):
    url, state = index
    assert install_torch.reachable(url) is None and state["paths"] == ["/whl/cpu/torch/"]
    state["reply"] = (404, "no")
    assert install_torch.reachable(url) == "it answered HTTP 404"


def test_an_index_that_does_not_answer_says_why():
    assert install_torch.reachable(closed_port_url()) == "[Errno 111] Connection refused"


@pytest.fixture
def pip_calls(monkeypatch):
    calls = []
    monkeypatch.setattr(install_torch, "installed", lambda python: None)
    monkeypatch.setattr(install_torch, "from_configuration", lambda python: False)
    monkeypatch.setattr(install_torch, "pip", lambda python, *args, **_: calls.append(args) or
                        type("Done", (), {"returncode": 0})())
    return calls


def test_where_no_cpu_build_can_be_had_ci_gets_none_and_is_told(pip_calls, monkeypatch, capsys):
    monkeypatch.setattr(install_torch, "CPU_INDEX", closed_port_url())
    assert install_torch.main(["python3", "--else", "none"]) == install_torch.NONE
    assert pip_calls == []
    told = capsys.readouterr().err
    assert "No CPU build of PyTorch 2.13.0 for Python" in told
    assert "Connection refused" in told and "set up without PyTorch" in told


def test_where_no_cpu_build_can_be_had_a_user_gets_pypi_s_and_is_told(pip_calls, monkeypatch,
                                                                       capsys):
    monkeypatch.setattr(install_torch, "CPU_INDEX", closed_port_url())
    assert install_torch.main(["python3"]) == 0
    assert pip_calls == [("torch==2.13.0",)]  # PyPI's, without the index that did not answer
    assert "the CUDA build" in capsys.readouterr().err


def test_an_index_that_answers_is_given_to_pip_with_few_retries(pip_calls, index, monkeypatch):
    url, _ = index
    monkeypatch.setattr(install_torch, "CPU_INDEX", url)
    assert install_torch.main(["python3", "--else", "none"]) == 0
    assert pip_calls == [("--retries", "1", "--timeout", "30", "torch==2.13.0",
                          "--extra-index-url", url)]
