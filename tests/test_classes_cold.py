"""Class mode tried cold (issue 27), over real HTTP: what a learner, a teacher or an attacker did that went wrong
once, each kept here so it stays fixed. Uses :mod:`test_classes_routes`'s server (the real handlers, SQLite)."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
import requests
from musteach_server.classes.routes import CLASS_COOKIE, TEACHER_COOKIE
from test_classes_routes import Server, join_link, server, teacher_session, xsrf

__all__ = ["server"]  # the fixture, imported for pytest


def test_joining_the_same_class_again_keeps_one_learner(server: Server) -> None:
    teacher, class_id = teacher_session(server)
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    ane = requests.Session()
    form = ane.get(link, timeout=10)
    assert ane.post(link, data={"name": "Ane", "_xsrf": xsrf(form.text)}, timeout=10).status_code == 200
    cookie = ane.cookies[CLASS_COOKIE]
    # the teacher asks the room to open the link again: Ane's browser is shown the class she is in
    again = ane.get(link, timeout=10)
    assert again.status_code == 200 and again.url == server.url + "class/"
    assert "as Ane." in html.unescape(again.text)
    # and a second form sent (an old tab) does not make a second Ane
    done = ane.post(link, data={"name": "Ane", "_xsrf": xsrf(form.text)}, timeout=10)
    assert done.status_code == 200 and done.url == server.url + "class/"
    code = server.store.classes_of(1)[0][0].code
    by_code = ane.post(server.url + "join/", data={"code": code, "name": "Ane", "_xsrf": xsrf(form.text)}, timeout=10)
    assert by_code.url == server.url + "class/"
    assert ane.cookies[CLASS_COOKIE] == cookie
    assert [r.name for r in server.store.dashboard(1, class_id).learners] == ["Ane"]


def test_names_that_would_turn_or_hide_text_on_the_dashboard_are_refused(server: Server) -> None:
    teacher, class_id = teacher_session(server)
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    for name in ("\u202eenA", "Ane\u200b", "Iker\u2066", "Ne\x7frea", "Jon\x9b"):
        s = requests.Session()
        form = s.get(link, timeout=10)
        refused = s.post(link, data={"name": name, "_xsrf": xsrf(form.text)}, timeout=10)
        assert refused.status_code == 400, repr(name)
        assert "Type a name of 1 to 40 characters." in refused.text
    assert server.store.dashboard(1, class_id).learners == []
    # accents, ñ and other scripts are names like any other
    for name in ("Iñaki Etxeberría", "Ørjan", "Мария"):
        s = requests.Session()
        form = s.get(link, timeout=10)
        assert s.post(link, data={"name": name, "_xsrf": xsrf(form.text)}, timeout=10).status_code == 200


def test_a_blank_class_name_is_asked_again_not_called_an_unknown_class(server: Server) -> None:
    teacher, _ = teacher_session(server)
    home = teacher.get(server.url + "teach/", timeout=10)
    for name in ("   ", "x" * 81):
        refused = teacher.post(server.url + "teach/classes", data={"name": name, "_xsrf": xsrf(home.text)}, timeout=10)
        assert refused.status_code == 400
        assert "Type a class name of 1 to 80 characters." in refused.text
        assert "No class has this code" not in refused.text and 'name="name"' in refused.text
    assert len(server.store.classes_of(1)) == 1


@pytest.mark.parametrize("name", ['Ane;=HYPERLINK("http://x";"y")', "Iker;+1+1", "Jon; @SUM(A1)", "Nerea,-2+3"])
def test_no_csv_cell_starts_a_formula_when_a_spreadsheet_splits_at_semicolons(server: Server, name: str) -> None:
    """A Spanish spreadsheet opens a .csv split at ';' (its list separator): a name holding ';=' must not start a
    formula in the cell after it, nor one split at ','."""
    teacher, class_id = teacher_session(server)
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    s = requests.Session()
    form = s.get(link, timeout=10)
    assert s.post(link, data={"name": name, "_xsrf": xsrf(form.text)}, timeout=10).status_code == 200
    text = teacher.get(server.url + f"teach/class/{class_id}/csv", timeout=10).text
    for line in text.splitlines():
        for cell in re.split(r"[;,]", line):
            assert not cell.strip().strip('"').lstrip().startswith(("=", "+", "-", "@")), (line, cell)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1][0].replace("'", "") == name.replace("'", "")  # the name is still readable


def test_the_csv_opens_with_accents_in_a_spreadsheet(server: Server) -> None:
    """The export starts with a UTF-8 byte order mark, which spreadsheets read as 'this file is UTF-8'."""
    teacher, class_id = teacher_session(server)
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    s = requests.Session()
    form = s.get(link, timeout=10)
    assert s.post(link, data={"name": "Iñaki Etxeberría", "_xsrf": xsrf(form.text)}, timeout=10).status_code == 200
    body = teacher.get(server.url + f"teach/class/{class_id}/csv", timeout=10).content
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0]["learner"] == "Iñaki Etxeberría"


def test_a_join_link_naming_localhost_says_the_learners_need_the_machines_address(server: Server) -> None:
    """The club host who teaches on the server's own laptop opens their link at localhost: the join link the
    dashboard shows is then of no use on a learner's phone, and the page says so (and only then)."""
    teacher, class_id = teacher_session(server)
    note = "This link names this computer (localhost)"
    port = server.url.rsplit(":", 1)[1].rstrip("/")
    for host, shown in (("localhost", True), ("127.0.0.1", True), ("mus.example.org", False), ("192.0.2.7", False)):
        cookie = f"{TEACHER_COOKIE}={teacher.cookies[TEACHER_COOKIE]}"  # requests picks cookies by the Host header
        page = requests.get(server.url + f"teach/class/{class_id}", headers={"Host": f"{host}:{port}", "Cookie": cookie},
                            timeout=10)
        assert page.status_code == 200
        assert (note in html.unescape(page.text)) is shown, host


def test_adding_a_teacher_again_replaces_a_lost_link_and_keeps_their_classes(tmp_path, capsys) -> None:
    """`musteach teacher add NAME` again (the README's way to replace a lost link) gives the same teacher a new
    link: their classes stay, the old link stops working. It made a second teacher with no class."""
    import argparse

    from musteach_server.classes import cli
    from musteach_server.classes.db import ClassStore

    database = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    store = ClassStore.open(database)
    maite, old_key = store.add_teacher("Maite", password="s3cret")
    klass = store.open_class(maite.id, "Martes")
    store.close()
    assert cli.run(argparse.Namespace(name="Maite", password=False, database=database, url="http://h/")) == 0
    out = capsys.readouterr().out
    assert "already there" in out
    new_key = out.strip().rsplit("/", 1)[1]
    store = ClassStore.open(database)
    try:
        again = store.teacher_by_key(new_key)
        assert again is not None and again.id == maite.id and again.has_password
        assert store.teacher_by_key(old_key) is None
        assert [c.id for c, _ in store.classes_of(again.id)] == [klass.id]
        assert store.check_password(again.id, "s3cret")
        other, _ = store.add_teacher("Jon")
        assert other.id != maite.id
    finally:
        store.close()


def test_an_oversized_body_is_refused_before_the_server_holds_it(server: Server) -> None:
    """Anyone can send the record route a body of up to tornado's 100 MB, which the server read whole before it
    refused it (a 90 MB post took the server's memory from 157 to 377 MB). It is now refused as it arrives."""
    from musteach_server.classes.records import MAX_RECORD_BYTES

    big = b"x" * (64 * 1024)
    try:  # a 400 and the connection closed: the client may see the 400 or only the close
        refused = requests.post(server.url + "musteach/api/record", data=big,
                                headers={"X-Musteach-Kernel": "forged"}, timeout=10)
        assert refused.status_code == 400
    except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
        pass
    # a record a little too big still gets its reason, and the route still works after
    teacher, class_id = teacher_session(server)
    ane = requests.Session()
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    form = ane.get(link, timeout=10)
    ane.post(link, data={"name": "Ane", "_xsrf": xsrf(form.text)}, timeout=10)
    key = server.kernel("k-ane", ane.cookies[CLASS_COOKIE])
    too_big = server.post_record(key, {"id": "a", "kind": "answer", "note": "x" * MAX_RECORD_BYTES})
    assert too_big.status_code == 400 and "at most" in too_big.json()["why"]
    assert server.post_record(key, {"id": "b", "kind": "answer", "correct": True}).status_code == 201


def test_the_code_typed_after_join_in_the_address_opens_the_class(server: Server) -> None:
    """A learner told "go to /join and type the code" types it in the address (/join/f5tbu7): the class's join
    page, not the server's "Page not found"."""
    _teacher, class_id = teacher_session(server)
    code = server.store.classes_of(1)[0][0].code
    s = requests.Session()
    for typed in (code, code.lower() + "/"):
        form = s.get(server.url + f"join/{typed}", timeout=10)
        assert form.status_code == 200 and "Join the class" in html.unescape(form.text), typed
    joined = s.post(server.url + f"join/{code.lower()}", data={"name": "Ane", "_xsrf": xsrf(form.text)}, timeout=10)
    assert joined.status_code == 200 and joined.url == server.url + "class/"
    assert [r.name for r in server.store.dashboard(1, class_id).learners] == ["Ane"]
    assert s.get(server.url + "join/ZZZZZ9", timeout=10).status_code == 404


def test_a_teacher_is_not_told_to_ask_their_teacher(server: Server) -> None:
    """A class or learner that is not the teacher's answers 404 with a teacher's sentence, not the learner's
    "Check it with your teacher"."""
    teacher, class_id = teacher_session(server)
    for path in (f"teach/class/{class_id + 1}", f"teach/class/{class_id}/learner/999", f"teach/class/{class_id + 1}/csv"):
        page = teacher.get(server.url + path, timeout=10)
        assert page.status_code == 404
        text = html.unescape(page.text)
        assert "This class or learner is not among yours." in text and "your teacher" not in text, path
    es = teacher.get(server.url + f"teach/class/{class_id + 1}?lang=es", timeout=10)
    assert "Esta clase o este alumno no está entre los tuyos." in html.unescape(es.text)
