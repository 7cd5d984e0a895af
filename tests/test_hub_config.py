"""hub/config.yaml is a valid `values` file of the Zero to JupyterHub chart 4.x, as helm checks it.

helm merges a config.yaml over the chart's default values.yaml and validates the result against
the chart's values.schema.json before it renders anything; a misspelt key (`singleuser.memroy`) or
a value of the wrong type stops `helm upgrade`. The test does the same with the chart's own files,
vendored in tests/fixtures/ (chart 4.4.0; their source URL and commit are in the files: the test
machine reaches PyPI and npm, not GitHub). It also checks what the graded path needs (hub/README.md,
section 6) and that the image's environment pins nbgrader as the teacher's does.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")
jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SCHEMA = FIXTURES / "z2jh-4.4.0-values.schema.json"
DEFAULTS = FIXTURES / "z2jh-4.4.0-values.yaml"


def _helm_merge(defaults: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """helm's coalescing of user values over chart defaults: maps merge, a null deletes a key,
    anything else (lists included) replaces."""
    merged = dict(defaults)
    for key, value in values.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _helm_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _errors(values: dict[str, Any]) -> list[str]:
    schema = json.loads(SCHEMA.read_text())
    merged = _helm_merge(yaml.safe_load(DEFAULTS.read_text()), values)
    validator = jsonschema.Draft7Validator(schema)
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(merged)]


def _config() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "hub" / "config.yaml").read_text()))


def test_the_vendored_chart_files_say_where_they_come_from() -> None:
    schema = json.loads(SCHEMA.read_text())
    assert "zero-to-jupyterhub-k8s/blob/4.4.0/" in schema["$comment"]
    assert "zero-to-jupyterhub-k8s/blob/4.4.0/" in DEFAULTS.read_text()
    assert _errors({}) == []  # the chart's defaults pass its own schema


def test_config_yaml_passes_the_charts_schema() -> None:
    assert _errors(_config()) == []


def test_the_schema_check_catches_a_misspelt_key() -> None:
    config = _config()
    config["singleuser"]["memroy"] = config["singleuser"].pop("memory")
    assert any("memroy" in e for e in _errors(config))
    config = _config()
    config["cull"]["timeout"] = "an hour"
    assert any("cull.timeout" in e for e in _errors(config))


def test_config_yaml_uses_ngshare_and_gives_the_teacher_formgrader() -> None:
    config = _config()
    single = config["singleuser"]
    # the exchange is ngshare, a hub service, reached through the proxy; no shared volume any more
    service = config["hub"]["services"]["ngshare"]
    assert set(service) == {"url", "api_token"} and service["url"].startswith("http://ngshare")
    assert "extraVolumes" not in single["storage"] and "exchange" not in json.dumps(single["storage"])
    exchange = single["extraFiles"]["nbgrader-exchange"]
    assert exchange["mountPath"] == "/etc/jupyter/nbgrader_config.py"
    assert "from ngshare_exchange import configureExchange" in exchange["stringData"]
    assert 'configureExchange(c, "http://proxy-public/services/ngshare")' in exchange["stringData"]
    assert "Exchange.root" not in exchange["stringData"]
    # ngshare's chart values: the same secret's placeholder, the teacher as ngshare's admin
    chart = yaml.safe_load((ROOT / "hub" / "ngshare.yaml").read_text())
    assert chart["ngshare"]["admins"] == config["hub"]["config"]["Authenticator"]["admin_users"]
    assert "hub_api_token" in chart["ngshare"] and "hub/ngshare.yaml" in service["api_token"]
    # the course id of the students' config is the one of the repository's nbgrader_config.py
    course_id = re.search(r'c\.CourseDirectory\.course_id = "(\w+)"',
                          (ROOT / "nbgrader_config.py").read_text())
    assert course_id and f'c.CourseDirectory.course_id = "{course_id.group(1)}"' in exchange["stringData"]
    # formgrader may be framed by the teacher's own Lab, and only on the teacher's server
    teacher_server = single["extraFiles"]["nbgrader-teacher-server"]
    assert teacher_server["mountPath"].startswith("/etc/jupyter/teacher/")
    headers = teacher_server["data"]["ServerApp"]["tornado_settings"]["headers"]
    assert headers == {"Content-Security-Policy": "frame-ancestors 'self'"}
    assert sum("frame-ancestors" in json.dumps(spec) for spec in single["extraFiles"].values()) == 1
    hook = config["hub"]["extraConfig"]["nbgrader-teacher"]
    assert "c.Spawner.pre_spawn_hook" in hook and "/etc/jupyter/teacher" in hook
    compile(hook, "hub.extraConfig.nbgrader-teacher", "exec")
    teacher = {spec["mountPath"] for spec in single["extraFiles"].values()
               if spec["mountPath"].startswith("/etc/jupyter/teacher/")}
    assert teacher == {"/etc/jupyter/teacher/nbgrader_config.py",
                       "/etc/jupyter/teacher/jupyter_server_config.json",
                       "/etc/jupyter/teacher/labconfig/page_config.json"}
    # LTI 1.3 with ltiauthenticator's required settings, and no grade passback promised
    hub = config["hub"]["config"]
    assert hub["JupyterHub"]["authenticator_class"] == "ltiauthenticator.lti13.auth.LTI13Authenticator"
    assert {"issuer", "client_id", "authorize_url", "jwks_endpoint"} <= set(hub["LTI13Authenticator"])
    assert "grade passback" in (ROOT / "hub" / "config.yaml").read_text()


def test_students_and_teachers_pin_the_same_nbgrader() -> None:
    def pin(name: str) -> str:
        found = re.findall(r"^nbgrader==(\S+)$", (ROOT / "binder" / name).read_text(), re.M)
        assert len(found) == 1, name
        return str(found[0])

    assert pin("requirements.txt") == pin("requirements-teacher.txt")


COURSE_FOLDER = ("the course folder is `../chutes-course-grading` on your own machine (the default "
                 "of `make teacher`) and `~/course` on a hub (`python -m chutes_teacher.gradebook "
                 "setup --course ~/course`")


def _prose(path: Path) -> str:
    """A file's words with comment markers and line breaks taken out (a sentence may wrap)."""
    lines = [re.sub(r"^\s*#\s?", "", line).strip() for line in path.read_text().splitlines()]
    return re.sub(r"\s+", " ", " ".join(lines))


def test_one_course_folder_in_the_same_words_everywhere() -> None:
    """`make teacher`'s default, hub/config.yaml's ~/course, TEACHING.md and hub/README.md agree."""
    for name in ("Makefile", "hub/config.yaml", "TEACHING.md", "hub/README.md"):
        assert COURSE_FOLDER.lower() in _prose(ROOT / name).lower(), name
    default = re.search(r"^COURSE_DIR\s*\?=\s*(\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert default and default.group(1) == "../chutes-course-grading"
    teacher = _config()["singleuser"]["extraFiles"]["nbgrader-teacher-course"]["stringData"]
    assert 'configure_teacher_server(c, "~/course")' in teacher


def test_the_teachers_settings_win_over_the_students_on_a_hub(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """On a teacher's server the students' /etc/jupyter/nbgrader_config.py (Validate's 300 s a cell)
    is read too, below the teacher's folder: what autograde gets is the course's (120 s a cell, the
    sandbox), with no course folder made yet (issue 47: the students' 300 s won)."""
    from chutes_teacher.autograde import _settings
    from chutes_teacher.sandbox import SandboxedExecute

    files = _config()["singleuser"]["extraFiles"]
    teacher, everyone = tmp_path / "teacher", tmp_path / "everyone"
    teacher.mkdir()
    everyone.mkdir()
    (teacher / "nbgrader_config.py").write_text(files["nbgrader-teacher-course"]["stringData"])
    students = files["nbgrader-exchange"]["stringData"]
    assert "c.Execute.timeout = 300" in students
    # the students' file without ngshare's client (not installed here): its own settings
    (everyone / "nbgrader_config.py").write_text("\n".join(
        line for line in students.splitlines() if "ngshare" not in line.lower()))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", os.pathsep.join([str(teacher), str(everyone)]))
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = _settings(tmp_path / "course")
    assert settings.Execute.timeout == 120
    assert SandboxedExecute in settings.Autograde.autograde_preprocessors
    assert settings.CourseDirectory.root == str(tmp_path / "course")


def test_a_students_kernel_connection_outlives_the_first_ping(tmp_path: Path) -> None:
    """The students' server settings (binder/student_settings.py: make lab, Binder, the hub image)
    give Jupyter Server's kernel websockets a ping timeout longer than its ping interval: the
    first ping finds a socket silent for just over one interval, so a timeout equal to it (the
    30,000 ms these settings had) closed every student's kernel connection after 30 s."""
    import sys

    from jupyter_server.base.websocket import WS_PING_INTERVAL

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "binder"))
    import student_settings

    student_settings.write(tmp_path)
    server = json.loads((tmp_path / "etc" / "jupyter" / "jupyter_server_config.json").read_text())
    tornado = server["ServerApp"]["tornado_settings"]
    interval = tornado.get("ws_ping_interval", WS_PING_INTERVAL)
    assert interval == student_settings.WS_PING_INTERVAL_MS
    assert tornado["ws_ping_timeout"] >= 2 * interval, tornado
    # tornado's one warning about it, which a student cannot act on, stays out of the terminal
    assert server["ServerApp"]["logging_config"]["loggers"]["tornado.general"]["level"] == "ERROR"
